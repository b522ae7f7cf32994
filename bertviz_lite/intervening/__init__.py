"""Interventions on a real encoder, and their exact effect on every later layer: a head switched off, a token
masked, a value vector zeroed (`edits`); the run recomputed from the first changed layer on, as a trace the
stepper opens like any other (`run`); value zeroing as a context-mixing map (`value_zeroing`, Mohebbi et al.
2023), its T variants of a layer sharing the feed-forward's first maps through the norm (`past_the_norm`)."""
