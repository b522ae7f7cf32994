"""`bertviz-lite export`: a lecture as a static site (bertviz_lite/export)."""
from __future__ import annotations

from ..errors import InputError, LoadError
from .console import progress


def cmd_export(args) -> None:
    from ..export import site_content, write_site
    from ..loading.loader import load_model
    from ..tour.lecture import LECTURE_SENTENCES

    given = [*args.text, *(part for pair in args.pair for part in pair)]
    if not given or not all(text.strip() for text in given):
        raise InputError("Give each --text a sentence, and each --pair two: an empty one has nothing to show.")
    for text in given:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # bytes the shell could not read as UTF-8
            raise InputError(f"--text {text.encode('utf-8', 'replace').decode()!r} is not valid UTF-8 text.") from None
    progress(f"loading {args.model}")
    try:
        loaded = load_model(args.model)
    except LoadError as error:  # a model that cannot be had is a request the command cannot take
        raise InputError(str(error)) from None
    progress(f"computing {len(args.text) + len(args.pair)} sentence(s)")
    if len(set(text.strip() for text in args.text)) == 1:
        progress(f"one --text: the Similarity view compares it with the default lecture's {len(LECTURE_SENTENCES)} "
                 f"sentences (give --text twice or more to compare your own)")
    out = write_site(args.out, site_content(loaded, args.text, weights=not args.no_weights,
                                            pairs=[tuple(pair) for pair in args.pair], live=args.live))
    print(out / "index.html")


def cmd_runtime(args) -> None:
    from ..export.runtime import cache_folder, runtime_files

    progress("fetching the browser's runtime from the npm registry")
    runtime_files()
    print(cache_folder())
