"""A stand-in for the Hugging Face Hub on 127.0.0.1 that serves saved model directories, so `prefetch` can be
tested end to end (a real download through huggingface_hub into a temporary cache) on a machine without
internet. Point HF_ENDPOINT at `LocalHub.url` in a subprocess.

It answers what transformers and huggingface_hub ask: HEAD/GET `/{repo}/resolve/{revision}/{file}` with the
commit and ETag headers, `/api/models/{repo}` (the file list) and `/api/models/{repo}/tree/...` (a folder's
files), and 404 with the Hub's error-code header for anything else.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

COMMIT = "0123456789abcdef0123456789abcdef01234567"  # every repository is at this one revision


class LocalHub:
    def __init__(self, repos: dict[str, str], port: int = 0, bytes_per_s: float | None = None):
        """repos: Hub id (e.g. "tiny/bert") -> a directory written by save_pretrained; port 0: any free one;
        bytes_per_s: send files that slowly (a lecture hall's Wi-Fi), in chunks; None: at once."""
        self.repos = {repo: Path(directory) for repo, directory in repos.items()}
        self.bytes_per_s = bytes_per_s
        self.requests: list[str] = []  # "METHOD path", in order: tests check what was (not) downloaded
        self._server = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> LocalHub:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def file_for(self, url_path: str) -> Path | None:
        """The file that `/{repo}/resolve/{revision}/{name}` names, or None."""
        for repo, directory in self.repos.items():
            prefix = f"/{repo}/resolve/"
            if url_path.startswith(prefix):
                _revision, _, name = url_path[len(prefix):].partition("/")
                candidate = directory / name
                return candidate if candidate.is_file() else None
        return None

    def api_answer(self, url_path: str):
        """The JSON for `/api/models/{repo}...`, or None."""
        for repo, directory in self.repos.items():
            prefix = f"/api/models/{repo}"
            if url_path == prefix or url_path.startswith(prefix + "/revision/"):
                files = sorted(p.name for p in directory.iterdir() if p.is_file())
                return {"id": repo, "modelId": repo, "sha": COMMIT, "private": False, "gated": False,
                        "tags": [], "siblings": [{"rfilename": name} for name in files]}
            if url_path.startswith(prefix + "/tree/"):
                folder = url_path[len(prefix + "/tree/"):].partition("/")[2]
                if folder:
                    return None  # a save_pretrained directory has no sub-folders
                return [{"type": "file", "path": p.name, "size": p.stat().st_size, "oid": COMMIT}
                        for p in sorted(directory.iterdir()) if p.is_file()]
        return None

    def _handler(self):
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def do_HEAD(self):
                self._answer(body=False)

            def do_GET(self):
                self._answer(body=True)

            def _answer(self, body: bool) -> None:
                path = self.path.split("?", 1)[0]
                hub.requests.append(f"{self.command} {path}")
                found, listing = hub.file_for(path), hub.api_answer(path)
                if found is not None:
                    self._send(found.read_bytes(), body, {"X-Repo-Commit": COMMIT})
                elif listing is not None:
                    self._send(json.dumps(listing).encode(), body, {"Content-Type": "application/json"})
                else:
                    known = any(f"/{repo}/" in path + "/" for repo in hub.repos)
                    code = "EntryNotFound" if known else "RepoNotFound"
                    self._send(b"", body, {"X-Error-Code": code}, status=404)

            def _send(self, data: bytes, body: bool, headers: dict[str, str], status: int = 200) -> None:
                self.send_response(status)
                for name, value in {**headers, "ETag": f'"{hashlib.sha256(data).hexdigest()}"',
                                    "Content-Length": str(len(data))}.items():
                    self.send_header(name, value)
                self.end_headers()
                if body and hub.bytes_per_s:
                    chunk = max(1, int(hub.bytes_per_s / 20))  # 20 chunks a second
                    for start in range(0, len(data), chunk):
                        self.wfile.write(data[start:start + chunk])
                        self.wfile.flush()
                        time.sleep(0.05)
                elif body:
                    self.wfile.write(data)

            def log_message(self, *args) -> None:  # quiet
                pass

        return Handler


if __name__ == "__main__":  # serve by hand, e.g. to bake a model into the Docker image without internet
    import argparse

    parser = argparse.ArgumentParser(description="Serve saved model directories as a stand-in Hugging Face Hub.")
    parser.add_argument("repos", nargs="+", help="REPO_ID=DIRECTORY, e.g. tiny/bert=/tmp/tiny-bert")
    parser.add_argument("--port", type=int, default=8766)
    args = parser.parse_args()
    with LocalHub(dict(pair.split("=", 1) for pair in args.repos), args.port) as hub:
        print(f"serving {', '.join(hub.repos)} on {hub.url}", flush=True)
        while True:
            time.sleep(3600)
