"""The app's shell: what every page shares, one idea per module. `state` (the view in the URL), `models` (the
model chosen and switched), `sidebar`, `turns` (each run's turn in the server's line), `lecture` (a page laid out
for the room), `charts` (charts and CSV as a page sends them), `guarded` (loading and computing, every failure a
message) and `chips` (tokens as chips)."""
