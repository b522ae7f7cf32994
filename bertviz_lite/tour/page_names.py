"""Each page's name in the navigation, by its URL path, in the navigation's order: the app's sidebar
(app_pages/shell/pages.py) and an exported site's navigation (export/content.py, read by router.js) both take
them from here, so that a page is called one thing wherever a student meets it."""
from __future__ import annotations

PAGE_NAMES = {"": "Overview", "tour": "Tour", "architecture": "Architecture", "tokens": "Tokens", "layers": "Layers",
              "attention": "Attention", "similarity": "Similarity", "contexts": "Word in context",
              "compare": "Compare models", "heads": "Heads", "rollout": "Rollout", "contributions": "Contributions",
              "lens": "Logit lens", "intervene": "Interventions", "attribute": "Attributions"}
NOT_ON_A_SITE = ("architecture", "compare")  # a site's overview shows the architecture's tree and sunburst;
# Compare runs two models side by side (the site says so where a link asks for it)


def site_pages() -> dict[str, str]:
    """A site's navigation: its pages' names by the path its router knows them by (the overview's is "overview")."""
    return {path or "overview": name for path, name in PAGE_NAMES.items() if path not in NOT_ON_A_SITE}
