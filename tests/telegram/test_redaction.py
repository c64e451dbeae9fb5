"""The token never leaves the process in clear: bot.redaction's hooks, in a real interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from bot.redaction import PLACEHOLDER, Redactor

TOKEN = "7654321:AAHsecretSECRETsecret_-0123456789ab"
SECRET_PART = TOKEN.split(":")[1]


def test_the_token_and_its_secret_part_are_replaced():
    """The whole token, and the part after the colon alone (as in a quoted URL), are replaced;
    a secret part too short to be told from ordinary text is replaced only in the whole token."""
    redact = Redactor(TOKEN)
    assert redact(f"GET /bot{TOKEN}/getMe and /bot7654321%3A{SECRET_PART}/x") == (
        f"GET /bot{PLACEHOLDER}/getMe and /bot7654321%3A{PLACEHOLDER}/x"
    )
    short = Redactor("1:x")
    assert short("bot1:x/getMe, x marks the spot") == f"bot{PLACEHOLDER}/getMe, x marks the spot"


def test_every_channel_of_the_interpreter_is_redacted():
    """After install(): log records with tracebacks, warnings, an exception in a thread, one in
    __del__ (unraisable) and the uncaught one that ends the program all reach standard error
    with the token replaced."""
    program = textwrap.dedent(f"""
        import gc, logging, threading, warnings
        from bot import redaction
        TOKEN = {TOKEN!r}
        logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
        redaction.install(TOKEN, "%(levelname)s %(name)s: %(message)s")
        try:
            raise ValueError("logged " + TOKEN)
        except ValueError:
            logging.getLogger("telegram.ext").exception("at http://x/bot%s/getMe", TOKEN)
        warnings.warn("warned " + TOKEN)
        def fail():
            raise RuntimeError("thread " + TOKEN)
        thread = threading.Thread(target=fail)
        thread.start()
        thread.join()
        class Finalizer:
            def __del__(self):
                raise RuntimeError("finalizer " + TOKEN)
        Finalizer()
        gc.collect()
        print("printed through the program's redactor:", redaction.Redactor(TOKEN)(TOKEN))
        raise SystemError("uncaught " + TOKEN)
    """)
    proc = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1
    assert SECRET_PART not in proc.stdout + proc.stderr
    for what in ("logged", "warned", "thread", "finalizer", "uncaught"):
        assert f"{what} {PLACEHOLDER}" in proc.stderr, what
    assert f"http://x/bot{PLACEHOLDER}/getMe" in proc.stderr
    assert "Traceback" in proc.stderr  # the tracebacks are kept, only redacted
    assert f"printed through the program's redactor: {PLACEHOLDER}" in proc.stdout
