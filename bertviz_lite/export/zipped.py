"""A lecture's site as one .zip, for the app's "Download this lecture as a site": written as the command writes it
(to a temporary folder, then zipped), without the weights' scripts unless asked, so that a download stays a few
megabytes (a site without them explains a linear map's cell in the app, and says so)."""
from __future__ import annotations

import io
import shutil
import tempfile
import zipfile
from pathlib import Path

from .content import site_content
from .writing import write_site


MOST_BYTES = 64 * 2**20  # a download's scripts at the most: a few sentences of a base-sized model


def site_zip(loaded, texts: list[str], weights: bool = False, most_bytes: int = MOST_BYTES,
             masked_lm=None, pairs: list[tuple[str, str]] = ()) -> bytes:
    """The site of `texts` on `loaded` as the bytes of a .zip whose one folder, `lecture-site/`, is the site; an
    InputError where its scripts would pass `most_bytes`. `masked_lm()`, `pairs`: as site_content takes them; the
    site opens on the pair where there is one, as the app's lecture reads it."""
    work = Path(tempfile.mkdtemp(prefix="bvl-site-zip-"))
    try:
        content = site_content(loaded, texts, weights=weights, masked_lm=masked_lm, pairs=pairs, pairs_first=True)
        site = write_site(work / "lecture-site", content, most_bytes)
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(site.rglob("*")):
                if path.is_file():
                    archive.write(path, Path("lecture-site") / path.relative_to(site))
        return buffer.getvalue()
    finally:
        shutil.rmtree(work, ignore_errors=True)
