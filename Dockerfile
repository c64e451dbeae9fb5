# quizbot in a container: slim Python, the hash-checked pins of requirements.lock, a non-root
# user, the database on the /data volume. Build: docker build -t quizbot .  (see compose.yaml)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# FriBiDi: Pillow's Raqm layout engine (bundled in its wheels) loads it at run time to order
# Persian and Arabic labels of the /stats chart; the slim image lacks it
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin quizbot \
    && mkdir /data && chown quizbot:quizbot /data && chmod 700 /data

# dependencies first (cached while only the code changes): exact versions, every hash checked
COPY requirements.lock /app/requirements.lock
RUN python -m venv /venv && /venv/bin/pip install --require-hashes -r /app/requirements.lock

# quizbot itself, without dependencies (all pinned above) and without fetching a build backend
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY bot bot
COPY storage storage
COPY banks banks
RUN /venv/bin/pip install --no-deps --no-build-isolation . && rm -rf build *.egg-info

USER quizbot
ENV PATH=/venv/bin:$PATH \
    QUIZBOT_DB=/data/quizbot.sqlite3
VOLUME /data
WORKDIR /data
# 8443: the webhook server (QUIZBOT_LISTEN), 9090: /healthz and /metrics (QUIZBOT_METRICS)
EXPOSE 8443 9090
# SIGTERM stops the bot within seconds (queued writes finished; give `docker stop -t 30`,
# as compose.yaml's stop_grace_period does); quizbot is PID 1 itself (exec form), so it gets it
STOPSIGNAL SIGTERM
ENTRYPOINT ["quizbot"]
CMD ["run"]
