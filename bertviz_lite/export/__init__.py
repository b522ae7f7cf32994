"""`bertviz-lite export`: a lecture as a static site that needs no server. A folder with `index.html`, the site's
scripts and style, plotly.js from the installed plotly package and the app's type, and the lecture's numbers as
scripts (a page opened from disk may not fetch files, but it may load scripts): a double click opens it, any static
host serves it, and its README makes it a Hugging Face static Space as it is.

The site shows what the app computes, with the app's deep links (`index.html#/layers?text=…&step=attn.scores`):
the overview, the tokens, the stepper through every sub-step with any cell explained in the browser (`steps.py`,
`frontend/src/explain.js`), the guided tour (`tour.py`), the head and model views (`attention.py`) and the sentences'
similarity with each pair's split (`similarity.py`), each figure styled for a browser, a projector and a phone
(`screens.py`); lecture mode and the default lecture's Next. `zipped.py` gives the app's download."""
from .content import site_content
from .writing import write_site
from .zipped import site_zip

__all__ = ["site_content", "site_zip", "write_site"]
