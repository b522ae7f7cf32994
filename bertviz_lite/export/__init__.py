"""`bertviz-lite export`: a lecture as a static site that needs no server. A folder with `index.html`, the site's
script and style, plotly.js from the installed plotly package, and the lecture's numbers as a script (a page opened
from disk may not fetch files, but it may load scripts): a double click opens it, any static host serves it, and
its README makes it a Hugging Face static Space as it is.

This first part shows the overview (the module tree and the parameter sunburst) and each sentence's tokens, with
the app's deep links (`index.html#/tokens?text=…`); the stepper, the head and model views, the tour and similarity
come next (issue 45)."""
from .content import site_content
from .writing import write_site

__all__ = ["site_content", "write_site"]
