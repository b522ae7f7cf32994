"""How a hall's answers to a question are counted (issue 57, `ask=1&hall=1`): per question (its key: the same words
and choices about the same model and sentence), a count per choice (by its place among the choices), and nothing
else: no session, no address, no time of any answer (only when the question's count began, to forget it an hour
later), nothing that names a student.

One server keeps the counts in memory (`MemoryHall`): bounded (at most `QUESTIONS` questions, the oldest forgotten
first) and forgotten an hour after a question's first answer. Replicas behind a balancer share them in Redis
(`RedisHall`, where `BVL_REDIS_URL` names one), with the same hour as Redis's own expiry.

>>> hall = MemoryHall(questions=2)
>>> for choice in ("1", "1", "2"):
...     hall.answer("q1", choice)
>>> hall.counts("q1")
{'1': 2, '2': 1}
>>> hall.answer("q2", "a"); hall.answer("q3", "b")
>>> hall.counts("q1")  # the oldest of three, past the bound
{}
"""
from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from typing import Protocol

FORGOTTEN_AFTER_S = 3600  # a question's counts live an hour from its first answer
QUESTIONS = 5000  # the most questions one server counts at once: about 2.6 MB at the bound (4 choices each, counted
# by place; measured with tracemalloc)
REDIS_URL = "BVL_REDIS_URL"  # the environment variable that names the replicas' shared Redis


class Hall(Protocol):
    def answer(self, question: str, choice: str) -> None: ...

    def counts(self, question: str) -> dict[str, int]: ...


class MemoryHall:
    """One server's counts, in memory: bounded, each question forgotten an hour after its first answer."""

    def __init__(self, questions: int = QUESTIONS, forgotten_after_s: float = FORGOTTEN_AFTER_S, clock=time.monotonic):
        self._questions, self._after, self._clock = questions, forgotten_after_s, clock
        self._counts: OrderedDict[str, tuple[float, dict[str, int]]] = OrderedDict()  # by first answer, oldest first
        self._lock = threading.Lock()

    def answer(self, question: str, choice: str) -> None:
        with self._lock:
            self._forget_old()
            if question not in self._counts:
                self._counts[question] = (self._clock(), {})
                while len(self._counts) > self._questions:
                    self._counts.popitem(last=False)
            counts = self._counts[question][1]
            counts[choice] = counts.get(choice, 0) + 1

    def counts(self, question: str) -> dict[str, int]:
        with self._lock:
            self._forget_old()
            return dict(self._counts.get(question, (0.0, {}))[1])

    def _forget_old(self) -> None:
        now = self._clock()
        while self._counts and now - next(iter(self._counts.values()))[0] >= self._after:
            self._counts.popitem(last=False)


class RedisHall:
    """The replicas' shared counts: a Redis hash per question, expiring an hour after its first answer."""

    def __init__(self, url: str, forgotten_after_s: int = FORGOTTEN_AFTER_S):
        import redis  # only where a deployment names a Redis

        self._redis, self._after = redis.Redis.from_url(url, socket_timeout=2), forgotten_after_s

    def answer(self, question: str, choice: str) -> None:
        key = f"bvl:hall:{question}"
        with self._redis.pipeline() as pipe:
            pipe.hincrby(key, choice, 1)
            pipe.expire(key, self._after, nx=True)
            pipe.execute()

    def counts(self, question: str) -> dict[str, int]:
        return {k.decode("utf-8"): int(v) for k, v in self._redis.hgetall(f"bvl:hall:{question}").items()}


def hall_for(environment: dict | None = None) -> Hall:
    """The hall's counts for this server: in Redis where `BVL_REDIS_URL` names one, else in memory."""
    url = (os.environ if environment is None else environment).get(REDIS_URL)
    return RedisHall(url) if url else MemoryHall()
