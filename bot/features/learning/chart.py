"""The progress chart of /stats: a PNG of the score per attempt over time, and of the days until
each question is due for review (FSRS's interval: :func:`bot.features.learning.rules.due_in_days`),
labelled in the user's language.

Plots are drawn by matplotlib (Agg, through its object API: no pyplot, so it is safe in a
worker thread). matplotlib lays text out glyph by glyph and does not shape complex scripts: in
Devanagari its vowel signs and conjuncts come out wrong. So every localized label is drawn by
Pillow with its Raqm layout engine (HarfBuzz shaping, bundled in Pillow's wheels) in a Noto font
from PyPI (``fontpkg-noto-sans``: Latin, Greek, Cyrillic; ``fontpkg-noto-sans-devanagari``;
``fontpkg-noto-sans-arabic``), and placed in the figure as an image; matplotlib itself only
writes digits (ticks).

Persian and Arabic labels are ordered by FriBiDi, which Raqm loads from the system at run time
(``libfribidi0``: the Dockerfile installs it).

Call :func:`render_png` off the event loop (``asyncio.to_thread``): it takes about 100-200 ms.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.features.learning.ports import Progress
from bot.i18n import Catalog
from bot.i18n.bidi import right_to_left
from bot.i18n.dates import format_month_day

if TYPE_CHECKING:  # imported where they are used: matplotlib's import takes about a second
    import numpy as np
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from numpy.typing import NDArray
    from PIL.ImageFont import FreeTypeFont

WIDTH, HEIGHT, DPI = 8.0, 6.0, 100
"""Figure size in inches and dots per inch: 800 x 600 pixels (a Telegram photo is at most
10 MB, width + height at most 10,000 px, aspect ratio at most 20: Bot API ``sendPhoto``)."""

LABEL_PX = 20
"""Font size of the localized labels, in pixels (drawn at twice the size, then halved)."""

MAX_QUESTIONS = 40
"""Questions shown at most in the panel of due dates (the soonest due first)."""

WEEK = 7.0
"""Days from which a question's bar is green (amber below; red when due now)."""

MAX_ATTEMPTS = 60
"""Attempts shown at most in the score panel (the latest)."""

LEFT, RIGHT, TOP, BOTTOM = 0.1, 0.97, 0.9, 0.07
"""The panels' edges, as fractions of the figure's width and height; a panel's title starts
at its left edge and is wrapped to end by its right edge (:func:`label_image`)."""

HSPACE, TITLE_LINE_SPACE = 0.55, 0.2
"""The room between the panels, as a fraction of a panel's mean height (matplotlib's
``hspace``), and what each further line of the lower panel's title adds to it."""


def font_path(language: str) -> Path:
    """The Noto font file for ``language``'s script (Devanagari for Hindi, Arabic for Persian
    and Arabic, which has Latin letters and digits too; else Noto Sans: Latin, Greek,
    Cyrillic)."""
    if language in ("fa", "ar"):
        import fontpkg_noto_sans_arabic as arabic

        return arabic.ROOT / "files" / "NotoSansArabic[wdth,wght].ttf"
    if language == "hi":
        import fontpkg_noto_sans_devanagari as devanagari

        return devanagari.ROOT / "files" / "NotoSansDevanagari[wdth,wght].ttf"
    import fontpkg_noto_sans as noto_sans

    return noto_sans.ROOT / "files" / "NotoSans[wdth,wght].ttf"


@cache
def _font(language: str, size: int) -> FreeTypeFont:
    from PIL import ImageFont

    font = ImageFont.truetype(str(font_path(language)), size, layout_engine=ImageFont.Layout.RAQM)
    font.set_variation_by_name("Bold")
    return font


def _units(text: str) -> list[str]:
    """``text``'s words, a part in brackets kept as one ("(0: due now)": a chart's key)."""
    units: list[str] = []
    inside = False
    for word in text.split():
        if inside:
            units[-1] += " " + word
        else:
            units.append(word)
        inside = (inside or word.startswith("(")) and not word.endswith(")")
    return units


def wrap_label(text: str, language: str, width: float, *, size: int = LABEL_PX) -> list[str]:
    """``text`` cut at spaces into lines that each take at most ``width`` pixels as
    :func:`label_image` draws them (measured with the real font, shaped by Raqm), a part in
    brackets kept on one line when it fits one; a word wider than ``width`` has a line of its
    own (:func:`label_image` then scales the label down)."""
    font = _font(language, size * 2)
    units: list[str] = []
    for unit in _units(text):  # a bracketed part wider than a line is cut at its spaces
        fits = font.getlength(unit, language=language) / 2 <= width
        units += [unit] if fits else unit.split()
    lines: list[str] = []
    for word in units:
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(joined, language=language) / 2 <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def label_image(
    text: str,
    language: str,
    *,
    size: int = LABEL_PX,
    rotate: bool = False,
    width: float | None = None,
) -> NDArray[np.uint8]:
    """``text`` shaped by Raqm (HarfBuzz) in the language's Noto font: an RGBA numpy array,
    dark grey on transparent, rotated a quarter turn when ``rotate`` (a vertical axis label).
    Given ``width`` (pixels), the text is wrapped to lines that fit it (:func:`wrap_label`),
    left-aligned (right-aligned in a right-to-left language, whose order Raqm's FriBiDi makes),
    and the label is scaled down if a word alone is wider.

    Raises:
        RuntimeError: Pillow was built without Raqm (the text would not be shaped), or, for a
            right-to-left language, the system has no FriBiDi (Raqm loads it at run time).
    """
    import numpy as np
    from PIL import Image, ImageDraw, features

    if not features.check("raqm"):
        raise RuntimeError("Pillow has no Raqm layout engine: labels would not be shaped")
    if right_to_left(language) and not features.check_feature("fribidi"):
        raise RuntimeError(
            "no FriBiDi library (libfribidi0): right-to-left labels would not be ordered"
        )
    font = _font(language, size * 2)
    pad = size // 2  # at twice the size: half of it on each side of the label as drawn
    lines = [text] if width is None else wrap_label(text, language, width - pad, size=size)
    ascent, descent = font.getmetrics()
    step = ascent + descent  # the font's own line height: lines of any script sit alike
    # ints: Pillow types them float for the sake of a float stroke width (none here)
    boxes = [[int(v) for v in font.getbbox(line, language=language)] for line in lines]
    left, right = min(box[0] for box in boxes), max(box[2] for box in boxes)
    top = min(box[1] + n * step for n, box in enumerate(boxes))
    bottom = max(box[3] + n * step for n, box in enumerate(boxes))
    image = Image.new("RGBA", (right - left + 2 * pad, bottom - top + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    rtl = right_to_left(language)
    for n, (line, box) in enumerate(zip(lines, boxes, strict=True)):
        indent = right - box[2] if rtl else 0  # a right-to-left label's lines end alike
        draw.text(
            (pad - left + indent, pad - top + n * step),
            line,
            font=font,
            fill=(40, 40, 40, 255),
            language=language,
        )
    image = image.resize((image.width // 2, image.height // 2), Image.Resampling.LANCZOS)
    if width is not None and image.width > width:  # a word alone is wider than the line
        image = image.resize(
            (int(width), max(1, int(image.height * width / image.width))), Image.Resampling.LANCZOS
        )
    if rotate:
        image = image.rotate(90, expand=True)
    return np.asarray(image)


def _short_date(seconds: float, language: str) -> str:
    """Day and month in the language's numeric order (CLDR skeleton ``Md``: 11/29, 29/11)."""
    return format_month_day(datetime.fromtimestamp(seconds, UTC), language)


def render_png(progress: Progress, t: Catalog) -> bytes:
    """The chart of ``progress`` in ``t``'s language, as PNG bytes (800 x 600 px).

    Raises:
        ValueError: there is nothing to chart.
    """
    out = io.BytesIO()
    figure(progress, t).savefig(out, format="png", dpi=DPI)
    return out.getvalue()


def figure(progress: Progress, t: Catalog) -> Figure:
    """The chart of ``progress`` in ``t``'s language, as a matplotlib figure (Agg canvas)
    that :func:`render_png` saves; each panel's title wrapped to the panel's width.

    Raises:
        ValueError: there is nothing to chart.
    """
    if progress.empty:
        raise ValueError("nothing to chart")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.offsetbox import AnnotationBbox, OffsetImage

    language = t.language
    # a label's pixel is drawn DPI / 72 figure pixels wide (OffsetImage's dpi_cor: an image
    # pixel is a point), so the panel's width in the label's pixels is its width in points
    title_width = WIDTH * 72 * (RIGHT - LEFT)
    # the lower panel's title, wrapped, takes more of the room between the panels
    due_lines = len(wrap_label(t("chart_due"), language, title_width - LABEL_PX // 2))
    # in lines of Noto Sans: a script whose font has taller lines (Arabic's) needs more room
    tall = sum(_font(language, LABEL_PX).getmetrics()) / sum(_font("en", LABEL_PX).getmetrics())
    chart = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(chart)
    scores_ax, known_ax = chart.subplots(
        2,
        1,
        gridspec_kw={
            "height_ratios": (1, 1.3),
            "hspace": (HSPACE + TITLE_LINE_SPACE * (due_lines - 1)) * max(1.0, tall),
        },
    )
    chart.subplots_adjust(left=LEFT, right=RIGHT, top=TOP, bottom=BOTTOM)

    end = 1.0 if right_to_left(language) else 0.0  # a title starts where its script does

    def title(ax: Axes, key: str) -> None:
        box = AnnotationBbox(
            OffsetImage(label_image(t(key), language, width=title_width)),
            (end, 1.02),
            xycoords="axes fraction",
            box_alignment=(end, 0.0),
            frameon=False,
        )
        ax.add_artist(box)

    points = progress.scores[-MAX_ATTEMPTS:]
    if points:
        xs = list(range(1, len(points) + 1))
        ys = [100.0 * p.score / p.total if p.total else 0.0 for p in points]
        scores_ax.plot(xs, ys, marker="o", color="#2a7ab9", linewidth=2)
        scores_ax.set_xticks(xs, _thin([_short_date(p.ended_at, language) for p in points]))
        scores_ax.set_xlim(0.5, len(points) + 0.5)
    scores_ax.set_ylim(0, 105)
    scores_ax.grid(axis="y", alpha=0.3)
    title(scores_ax, "chart_scores")

    known = sorted(progress.cards, key=lambda c: c[2])[:MAX_QUESTIONS]
    many_banks = len({bank.id for bank, _, _ in known}) > 1
    labels, values, colours = [], [], []
    bank_numbers = {
        bank_id: n
        for n, bank_id in enumerate(
            dict.fromkeys(bank.id for bank, _, _ in progress.cards), start=1
        )
    }
    longest = max((days for _, _, days in known), default=0.0)
    right = max(WEEK, longest * 1.05)
    for bank, question_id, days in known:
        number = next(i for i, q in enumerate(bank.questions, start=1) if q.id == question_id)
        labels.append(f"{bank_numbers[bank.id]}.{number}" if many_banks else str(number))
        values.append(max(days, right / 100))  # a question due now: a red stub, not nothing
        colours.append("#c0392b" if days <= 0 else "#e6a23c" if days < WEEK else "#27ae60")
    if known:
        positions = list(range(len(known)))
        known_ax.barh(positions, values, color=colours)
        known_ax.set_yticks(positions, labels, fontsize=8 if len(known) > 20 else 10)
        known_ax.invert_yaxis()
    known_ax.set_xlim(0, right)
    known_ax.grid(axis="x", alpha=0.3)
    title(known_ax, "chart_due")
    known_ax.add_artist(
        AnnotationBbox(
            OffsetImage(label_image(t("chart_question"), language, size=16, rotate=True)),
            (-0.06, 0.5),
            xycoords="axes fraction",
            box_alignment=(1.0, 0.5),
            frameon=False,
        )
    )
    return chart


def _thin(labels: Sequence[str], most: int = 12) -> list[str]:
    """Every n-th tick label kept (the others blank) so that at most ``most`` show."""
    step = max(1, -(-len(labels) // most))
    return [label if i % step == 0 else "" for i, label in enumerate(labels)]


def warm() -> None:
    """Import matplotlib and load the fonts (about a second, once per process), so that the
    first /stats is as quick as the others; run it in a thread at start."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: F401

    for language in ("en", "hi", "ar"):
        label_image("·", language)


def write_png(progress: Progress, t: Catalog, path: str | Path) -> Path:
    """Render the chart and write it to ``path`` (for ``quizbot play --stats --chart``)."""
    path = Path(path)
    path.write_bytes(render_png(progress, t))
    return path
