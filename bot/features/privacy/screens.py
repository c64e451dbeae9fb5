"""Screens of ``/deletemydata``: the question with its confirming button, and what was
deleted."""

from __future__ import annotations

from bot.features.privacy.ports import DeletedData
from bot.features.privacy.service import Creations
from bot.i18n import Catalog
from bot.render.callbacks import (
    DeleteDataButton,
)
from bot.render.screen import Button, Screen
from bot.render.text import Markup


def delete_data_question(
    t: Catalog, m: Markup, nonce: str, made: Creations | None = None
) -> Screen:
    """/deletemydata's question: what would be deleted, with "delete" and "keep" buttons that
    carry the question's one-time ``nonce``. A user who made quizzes (``made``) chooses
    between deleting them too and keeping them without their name; their draft is named."""
    made = made or Creations()
    text = [t("deletemydata_confirm")]
    if made.draft:
        text.append(t("deletemydata_draft"))
    if not made.quizzes:
        return Screen(
            m.escape("\n\n".join(text)),
            (
                (
                    Button(t("button_delete_confirm"), DeleteDataButton(1, nonce)),
                    Button(t("button_delete_cancel"), DeleteDataButton(0, nonce)),
                ),
            ),
        )
    text.append(t("deletemydata_quizzes", count=made.quizzes))
    return Screen(
        m.escape("\n\n".join(text)),
        (
            (Button(t("button_delete_with_quizzes"), DeleteDataButton(2, nonce)),),
            (Button(t("button_delete_keep_quizzes"), DeleteDataButton(3, nonce)),),
            (Button(t("button_delete_cancel"), DeleteDataButton(0, nonce)),),
        ),
    )


def delete_data_done(t: Catalog, m: Markup, deleted: DeletedData) -> Screen:
    """What /deletemydata deleted: the data, and the user's created quizzes deleted or kept
    without their name."""
    text = [t("deletemydata_done")]
    if deleted.quizzes_deleted:
        text.append(t("deletemydata_quizzes_deleted", count=deleted.quizzes_deleted))
    if deleted.quizzes_kept:
        text.append(t("deletemydata_quizzes_kept", count=deleted.quizzes_kept))
    return Screen(m.escape("\n\n".join(text)))
