"""The commands that run things: prefetching models for a lecture, the app's server, and the benchmarks."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import InputError
from .console import progress


def cmd_prefetch(args) -> None:
    from ..loading.loader import prefetch

    for source in args.models:
        progress(f"fetching {source}")
        loaded = prefetch(source)
        print(f"{source}: ready for offline use ({loaded.origin}, {type(loaded.model).__name__})")


def cmd_bench(args) -> None:
    if args.live:  # a live site: a reader's own sentence computed in the browser
        from ..benchmarks import live

        result = live.run(progress=progress)
        print(json.dumps(result) if args.json else live.report(result))
        return
    if args.site:  # an exported lecture: its export, its size, its speed in Chromium, a hall on a static server
        from ..benchmarks import site

        result = site.run(tabs=args.tabs or 100, progress=progress)
        print(json.dumps(result) if args.json else site.report(result))
        return
    if args.load:  # the app under a crowd, in its own server process; this one times the raw forward it is told in
        from ..benchmarks import load

        result = load.run(tabs=args.tabs or 40, many=args.many, soak=args.soak, replicas=args.replicas,
                          progress=progress)
        print(json.dumps(result) if args.json else load.report(result))
        return
    progress("importing torch and transformers")
    if args.devices:  # where a GPU would help; every CPU thread torch finds, unless --threads is given
        import torch

        from ..benchmarks import devices

        if args.threads:
            torch.set_num_threads(args.threads)
        rows = devices.run(repeats=args.repeats, progress=progress)
        print(json.dumps(rows) if args.json else devices.report(rows))
        return
    from ..benchmarks import speed  # it sets torch's thread count, so only this command imports it

    result = speed.run(threads=args.threads or 2, repeats=args.repeats, progress=progress)
    print(json.dumps(result) if args.json else speed.report(result))


def cmd_serve(args) -> None:
    """`streamlit run app.py` in this process, after starting the warm-up of the views BVL_WARM names
    (serving/warmup.py): they land in the caches the pages read."""
    app = Path(__file__).resolve().parents[2] / "app.py"
    if not app.is_file():
        raise InputError(f"serve runs the app from a checkout of the repository: there is no {app}")
    os.chdir(app.parent)  # where .streamlit/config.toml is read from
    from ..serving.warmup import views, warm_in_background
    from streamlit.web import cli as streamlit_cli

    warm_in_background(views(os.environ.get("BVL_WARM", "")))
    streamlit_cli.main(["run", str(app), *args.options], standalone_mode=True)
