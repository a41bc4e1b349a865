"""rcproto: the adapter protocol loop (adapters/PROTOCOL.md, version 1) for Python adapters.

Python 3.8+, standard library only. An adapter imports this module *before* its parser (so
that anything the parser prints lands on stderr, see below), describes itself and hands over
plain functions; everything else -- hello, base64, JSON, per-URL error capture, unsupported
operations, flushing, exit on EOF -- happens here:

    import rcproto
    from protego import Protego

    rcproto.serve(
        {"name": "python-protego", "version": "protego 0.7.0", "language": "python",
         "profile": "google", "body": "utf-8, errors=surrogateescape"},
        parse=lambda robots, agent: Protego.parse(rcproto.utf8(robots)),
        allowed=lambda p, agent, url: p.can_fetch(url, agent),
    )

Callbacks (all optional; an operation without one is answered `unsupported`):

    decide(robots: bytes, agent: str, urls: list) -> list   one entry per URL: a bool, an
                                    exception instance (becomes {"error": ...}) or a ready dict
    parse(robots: bytes, agent: str) -> parsed              once per decide request ...
    allowed(parsed, agent: str, url: str) -> bool           ... then once per URL; without
                                    `parse`, `allowed` gets the raw bytes as `parsed`
    sitemaps(robots: bytes) -> list of str (None means none)
    crawl_delay(robots: bytes, agent: str) -> str, number or None (numbers go through
                                    number_text)
    valid_token(token: str) -> bool
    robots_url(url: str) -> str or None
    fetch(robots_url: str, agent: str, urls: list, timeout: float) -> list
                                    for parsers that fetch robots.txt themselves: fetch
                                    `robots_url` (a loopback fixture URL) with the parser's
                                    own API, HTTP timeout `timeout` seconds, then answer
                                    each URL as `decide` does. An exception from the fetch
                                    becomes {"id": N, "error": ...}: the parser gave no
                                    verdict. Proxies are switched off first (the fixture is
                                    on 127.0.0.1; nothing else may be reached).

A verdict must be a real bool: anything else (None, 0, "yes") is reported as an error, since
the protocol forbids guessing. Raise Unsupported("why") from any callback to answer the whole
request with {"unsupported": "why"}. Exceptions from `allowed` are caught per URL; exceptions
anywhere else become {"id": N, "error": "Type: message"}. A line that is not a JSON object
gets {"id": null, "error": ...}. Blank lines are skipped. The loop returns at EOF (or when
the harness closes our stdout).

Stdout hygiene: at import, this module keeps a private duplicate of file descriptor 1 for the
answers and points fd 1 and sys.stdout at stderr, so a parser (Python or C) that prints can
never corrupt the protocol stream. Answers are written ASCII-only (json ensure_ascii) and lone
surrogates in strings (from a surrogateescape decode) are replaced by U+FFFD first, because
strict JSON readers reject them.
"""

import base64
import binascii
import json
import os
import re
import sys
import traceback
from decimal import Decimal

__all__ = [
    "serve", "Unsupported", "utf8", "each_url", "join_url", "path_of", "origin_of", "robots_txt_url",
    "number_text", "BASE",
]

PROTOCOL = 1

# Where paths are joined for parsers that need an absolute URL.
BASE = "https://example.com"


class Unsupported(Exception):
    """Raise to answer a request with {"unsupported": str(exc)}."""


# ---------------------------------------------------------------- stdout hygiene

def _claim_stdout():
    try:
        sys.stdout.flush()
    except Exception:
        pass
    fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return fd


_OUT = _claim_stdout()


def _write_line(obj):
    data = (json.dumps(_clean(obj), ensure_ascii=True, separators=(",", ":")) + "\n").encode("ascii")
    view = memoryview(data)
    while view:
        n = os.write(_OUT, view)
        view = view[n:]


_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean(obj):
    """Replaces lone surrogates in every string of a JSON-able value."""
    if isinstance(obj, str):
        return _SURROGATE.sub("\ufffd", obj)
    if isinstance(obj, dict):
        return {_clean(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


# ---------------------------------------------------------------- helpers for adapters

def utf8(robots, errors="surrogateescape"):
    """The body as str: UTF-8, BOM kept (as U+FEFF), invalid bytes per `errors`."""
    return robots.decode("utf-8", errors)


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def is_absolute(url):
    return bool(_SCHEME.match(url))


def join_url(url, base=BASE):
    """An absolute URL: `url` itself if it has a scheme, else `base` + the path (textually,
    no normalisation)."""
    if is_absolute(url):
        return url
    if not url.startswith("/"):
        url = "/" + url
    return base + url


def _split(url):
    """(scheme://authority, rest) of an absolute URL, textually; rest may be empty."""
    m = _SCHEME.match(url)
    i = m.end()
    j = i
    while j < len(url) and url[j] not in "/?#":
        j += 1
    return url[:j], url[j:]


def path_of(url):
    """Path and query of `url` (absolute or a path), fragment cut, textually: no decoding,
    no normalisation. An empty path becomes "/"."""
    rest = _split(url)[1] if is_absolute(url) else url
    rest = rest.split("#", 1)[0]
    if not rest.startswith("/"):
        rest = "/" + rest
    return rest


def origin_of(url, base=BASE):
    """scheme://authority of `url`; `base` for a path."""
    return _split(url)[0] if is_absolute(url) else base


def robots_txt_url(url, base=BASE):
    """The robots.txt URL of the site `url` is on (paths: of `base`), for parsers whose API
    is bound to one robots.txt URL, as a crawler would bind it."""
    return origin_of(url, base) + "/robots.txt"


def number_text(x):
    """A crawl-delay number as text the way Rust's f64 Display writes it ("5", "0.5")."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, bool):
        raise TypeError("crawl-delay is a bool: %r" % (x,))
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if x != x or x in (float("inf"), float("-inf")):
        return {"nan": "NaN", "inf": "inf", "-inf": "-inf"}[repr(x)]
    s = format(Decimal(repr(x)), "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def _message(exc):
    text = str(exc)
    name = type(exc).__name__
    return "%s: %s" % (name, text) if text else name


# ---------------------------------------------------------------- the loop

class _BadRequest(Exception):
    pass


def _field(req, key, kind, what):
    if key not in req:
        raise _BadRequest("missing %r" % key)
    v = req[key]
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        raise _BadRequest("%r must be %s" % (key, what))
    return v


def _robots(req):
    text = _field(req, "robots", str, "a base64 string")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError) as e:
        raise _BadRequest("robots is not valid base64: %s" % e)


def each_url(allowed, agent, urls):
    """`allowed(agent, url)` for each URL, an exception becoming that URL's error."""
    out = []
    for url in urls:
        try:
            out.append(allowed(agent, url))
        except Unsupported:
            raise
        except Exception as e:
            out.append(e)
    return out


def _verdict(value):
    if isinstance(value, dict):
        return value
    if isinstance(value, BaseException):
        return {"error": _message(value)}
    if value is True:
        return {"verdict": "allowed"}
    if value is False:
        return {"verdict": "disallowed"}
    return {"error": "parser returned %s, not a boolean" % (repr(value)[:80],)}


_NO_PROXY_DONE = False


def _no_proxies():
    """Drops proxy settings from the environment and urllib, once: a fetch must only reach
    the loopback fixture."""
    global _NO_PROXY_DONE
    if _NO_PROXY_DONE:
        return
    for k in list(os.environ):
        if k.lower() in ("http_proxy", "https_proxy", "all_proxy", "ftp_proxy"):
            del os.environ[k]
    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    import urllib.request
    urllib.request.install_opener(urllib.request.build_opener(urllib.request.ProxyHandler({})))
    _NO_PROXY_DONE = True


def serve(info, decide=None, parse=None, allowed=None, sitemaps=None, crawl_delay=None,
          valid_token=None, robots_url=None, fetch=None, stdin=None, content_signal=None,
          usage=None):
    """Runs the protocol loop on stdin/stdout until EOF. See the module docstring."""
    hello = dict(info)
    hello.setdefault("protocol", PROTOCOL)
    if decide is None and allowed is not None:
        def decide(robots, agent, urls):
            parsed = parse(robots, agent) if parse is not None else robots
            out = []
            for url in urls:
                try:
                    out.append(allowed(parsed, agent, url))
                except Unsupported:
                    raise
                except Exception as e:  # one URL's failure is that URL's answer
                    out.append(e)
            return out

    def answer(req):
        op = _field(req, "op", str, "a string")
        if op == "hello":
            return dict(hello)
        if op == "decide" and decide is not None:
            robots = _robots(req)
            agent = _field(req, "agent", str, "a string")
            urls = _field(req, "urls", list, "a list")
            if not all(isinstance(u, str) for u in urls):
                raise _BadRequest("'urls' must be a list of strings")
            results = decide(robots, agent, list(urls))
            results = list(results)
            if len(results) != len(urls):
                raise RuntimeError("adapter gave %d results for %d URLs" % (len(results), len(urls)))
            return {"results": [_verdict(r) for r in results]}
        if op == "fetch" and fetch is not None:
            url = _field(req, "robots_url", str, "a string")
            agent = _field(req, "agent", str, "a string")
            urls = _field(req, "urls", list, "a list")
            if not all(isinstance(u, str) for u in urls):
                raise _BadRequest("'urls' must be a list of strings")
            timeout = req.get("timeout", 1.0)
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
                raise _BadRequest("'timeout' must be a number of seconds")
            _no_proxies()
            results = list(fetch(url, agent, list(urls), float(timeout)))
            if len(results) != len(urls):
                raise RuntimeError("adapter gave %d results for %d URLs" % (len(results), len(urls)))
            return {"results": [_verdict(r) for r in results]}
        if op == "sitemaps" and sitemaps is not None:
            value = sitemaps(_robots(req))
            return {"value": [str(s) for s in value] if value is not None else []}
        if op == "crawl-delay" and crawl_delay is not None:
            robots = _robots(req)
            agent = _field(req, "agent", str, "a string")
            return {"value": number_text(crawl_delay(robots, agent))}
        if op == "usage" and usage is not None:
            robots = _robots(req)
            agent = _field(req, "agent", str, "a string")
            url = _field(req, "url", str, "a string")
            prefs = usage(robots, agent, url)
            if prefs is not None and not isinstance(prefs, dict):
                raise RuntimeError("adapter gave %r, not None or a dict" % (prefs,))
            return {"value": {"crawlable": prefs is not None, "usage": prefs}}
        if op == "content-signal" and content_signal is not None:
            robots = _robots(req)
            agent = _field(req, "agent", str, "a string")
            value = content_signal(robots, agent)
            keys = ("search", "ai-input", "ai-train", "use")
            if not isinstance(value, dict) or set(value) - set(keys):
                raise RuntimeError("adapter gave %r, not a dict of %s" % (value, ", ".join(keys)))
            return {"value": {k: value.get(k) for k in keys}}
        if op == "valid-token" and valid_token is not None:
            value = valid_token(_field(req, "token", str, "a string"))
            if not isinstance(value, bool):
                raise RuntimeError("parser returned %r, not a boolean" % (value,))
            return {"value": value}
        if op == "robots-url" and robots_url is not None:
            value = robots_url(_field(req, "url", str, "a string"))
            return {"value": None if value is None else str(value)}
        raise Unsupported("op %s" % op)

    source = stdin if stdin is not None else sys.stdin.buffer
    try:
        for raw in source:
            if not raw.strip():
                continue
            rid = None
            try:
                try:
                    req = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, ValueError) as e:
                    raise _BadRequest("request is not JSON: %s" % e)
                if not isinstance(req, dict):
                    raise _BadRequest("request is not a JSON object")
                rid = req.get("id")
                reply = {"id": rid}
                reply.update(answer(req))
            except Unsupported as e:
                reply = {"id": rid, "unsupported": str(e) or "unsupported"}
            except _BadRequest as e:
                reply = {"id": rid, "error": "bad request: %s" % e}
            except RecursionError as e:
                reply = {"id": rid, "error": _message(e)}
            except Exception as e:
                traceback.print_exc(file=sys.stderr)
                reply = {"id": rid, "error": _message(e)}
            _write_line(reply)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    try:
        os.close(_OUT)
    except OSError:
        pass
