#!/usr/bin/env python3
"""Finds the GET pages one signed-in user reaches from their home, for bench/pages.

Usage: bench/crawl.py BASE COOKIE [--start /home] [--max-pages 40] [--per-shape 3]

Starting at START (redirects followed), it fetches pages breadth first with the session cookie
and follows the href of every <a> that stays on the server: same origin, not a static asset or
media file (/css /js /img /fonts /media /pictograms /audio, /sw.js, /manifest.webmanifest), not
/logout; the fragment is dropped, the query kept. Pages whose paths differ only by numeric ids
share a shape (/patients/7/usage and /patients/9/usage are /patients/N/usage; the query does not
count: /symbols/new?pictogram=X is /symbols/new): at most PER_SHAPE URLs of a shape are fetched.
At most MAX_PAGES HTML pages (200, text/html) are fetched; downloads, errors and redirects are
listed but do not count.

Prints one tab-separated line per URL fetched, in the order found:
    URL  STATUS  CONTENT-TYPE  BYTES  SHAPE
(STATUS 3xx lines name the target in CONTENT-TYPE's place as "-> LOCATION").
"""
import argparse
import html
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections import deque

SKIPPED_PREFIXES = ("/css/", "/js/", "/img/", "/fonts/", "/media/", "/pictograms/", "/audio/")
SKIPPED_PATHS = {"/logout", "/sw.js", "/manifest.webmanifest", "/healthz"}
ANCHOR_HREF = re.compile(r"<a\b[^>]*?\bhref\s*=\s*(?:\"([^\"]*)\"|'([^']*)')", re.IGNORECASE | re.DOTALL)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def shape(url):
    """The path with numeric segments as N, without the query: one route pattern, roughly."""
    path = urllib.parse.urlsplit(url).path
    return "/".join("N" if segment.isdigit() else segment for segment in path.split("/"))


def internal(base, page_url, href):
    """The path?query an href on page_url points to on this server, or None."""
    href = html.unescape(href.strip())
    if not href or href.startswith("#"):
        return None
    absolute = urllib.parse.urljoin(page_url, href)
    parts = urllib.parse.urlsplit(absolute)
    origin = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or parts.netloc != origin.netloc:
        return None
    path = parts.path or "/"
    if path in SKIPPED_PATHS or path.startswith(SKIPPED_PREFIXES):
        return None
    return path + ("?" + parts.query if parts.query else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("cookie")
    parser.add_argument("--start", default="/home")
    parser.add_argument("--max-pages", type=int, default=40)
    parser.add_argument("--per-shape", type=int, default=3)
    args = parser.parse_args()

    opener = urllib.request.build_opener(NoRedirect)

    def fetch(url):
        request = urllib.request.Request(args.base + url, headers={"Cookie": args.cookie})
        try:
            with opener.open(request, timeout=30) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    queue = deque([args.start])
    seen = {args.start}
    per_shape = {}
    fetched = 0
    while queue and fetched < args.max_pages:
        url = queue.popleft()
        key = shape(url)
        if per_shape.get(key, 0) >= args.per_shape:
            continue
        per_shape[key] = per_shape.get(key, 0) + 1
        status, headers, body = fetch(url)
        if 300 <= status < 400:
            target = internal(args.base, args.base + url, headers.get("Location", ""))
            print(f"{url}\t{status}\t-> {headers.get('Location', '')}\t{len(body)}\t{key}", flush=True)
            if target and target not in seen:
                seen.add(target)
                queue.appendleft(target)
            continue
        content_type = (headers.get("Content-Type") or "").split(";")[0].strip()
        print(f"{url}\t{status}\t{content_type}\t{len(body)}\t{key}", flush=True)
        if status != 200 or content_type != "text/html":
            continue  # a download or an error: listed, not counted as a page
        fetched += 1
        text = body.decode("utf-8", errors="replace")
        for match in ANCHOR_HREF.finditer(text):
            target = internal(args.base, args.base + url, match.group(1) if match.group(1) is not None else match.group(2))
            if target and target not in seen:
                seen.add(target)
                queue.append(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
