"""What the lecture says around a question (issue 57), in one place: the app and an exported site show the same words
(a site is handed them: export/content.py), so that a student on a phone and the lecturer's screen agree."""
from __future__ import annotations

ASK_WORDS = {
    "first": "Predict first: the figure is shown once you have chosen.",  # above the choices
    "choose": "Your prediction",  # the choices' group, as a screen reader names it
    "line": "{label}: {number}",  # a choice's line with the answer
    "apart": "{label} (token {k})",  # a token the sentence has twice, told apart by its position
    "right": "right",  # said on the right choice's line (never by colour alone)
    "yours": "your choice",
    "was_right": "You chose {label}: right.",
    "was_wrong": "You chose {label}; the right one is {right}.",
    "shown": "Shown without a choice: the right one is {right}.",  # the lecturer's Next before anyone chose
    "reveal": "Show the answer",  # the lecture's Next while a question waits
    "next_chapter": "Next chapter: {title}",  # the lecture's Next once it is answered
    "leave": "Leave for: {title}",  # the lecture's next view, while the page has its own Next first
    "none": "No question here: this view asks none, or its numbers do not decide one for this sentence.",
    "hall": "How the hall answered ({answers} answers)",  # the count's title
    "hall_none": "No answer yet from the hall: students who open this link and choose are counted here.",
    "hall_static": "A static site counts no answers: each student sees only their own. Counts need the app "
                   "(hall=1 on the app's link).",
    "bad_ask": "ask={asked} is not understood: ask=1 asks before each chapter's figure, ask=0 (or none) does not.",
    "bad_hall": "hall={asked} is not understood: hall=1 shows the lecturer how the hall answered.",
}
