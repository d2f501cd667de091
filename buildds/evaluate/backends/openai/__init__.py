"""An OpenAI-compatible chat-completions backend (OpenAI, vLLM, llama.cpp, LiteLLM …).

* the API key comes from an environment variable (``$OPENAI_API_KEY`` unless
  ``api_key_env`` names another); it is sent as a Bearer header and nowhere else — not in
  logs, :meth:`OpenAIBackend.settings`, error texts or cache keys; a server that echoes it
  back (in an error or in an answer) finds it replaced by ``***`` in every result
  (:mod:`buildds.evaluate.redact`); a secret in the base URL (``?api-key=…``, userinfo)
  is redacted wherever the URL is stored or shown (settings, cache namespace, manifest),
  the requests going to the real URL;
* at most ``concurrency`` requests in flight (default 32);
* optional requests-per-minute and tokens-per-minute limits (token buckets; a request's
  tokens are estimated as prompt characters / 2 + ``max_tokens``);
* retries with exponential backoff and jitter on 429, 500, 502, 503, 504, connection
  errors and timeouts, honouring ``Retry-After`` (seconds or an HTTP date) on 429/503, up
  to ``max_attempts`` tries (default 6); each try as a whole (connecting, sending, reading)
  is abandoned after ``timeout_s`` (default 120 s); a ``Retry-After`` longer than
  ``max_retry_after_s`` (default 60 s) is not waited for: the sample fails at once with an
  error saying so (waiting the cap instead would only be refused again);
* at most ``max_response_bytes`` (default 16 MiB) read of one response, raw or decoded; a
  longer one is a per-sample error naming ``--max-response-bytes``;
* every failure ends up in ``ChatResult.error`` — a run never stops for one sample — except
  HTTP 401, 403 and 404, which every request would get alike (a wrong or missing key, a model
  the server does not have, a wrong URL): they raise
  :class:`~buildds.evaluate.backends.base.EndpointRefused`, naming the backend, its endpoint
  and the key's variable (never the key), and the run stops. Until the endpoint has answered
  one try, tries go one at a time, so a refusing endpoint gets one request, not
  ``concurrency`` of them;
* ``send_files=True`` (``buildds eval --send-files``) also sends a request's original files
  (``ChatRequest.attachments``), see below. Off by default: most OpenAI-compatible servers
  reject content parts they do not know.

Files (``send_files``). The attachments the Chat Completions API takes as input are added to
the last user message, whose content becomes a list — the text part first, then one part per
file in attachment order::

    {"type": "text", "text": "<the prompt>"}
    {"type": "file", "file": {"filename": "<name>",
                              "file_data": "data:application/pdf;base64,<bytes>"}}
    {"type": "image_url", "image_url": {"url": "data:image/png;base64,<bytes>"}}

PDF (``application/pdf``) goes as a ``file`` part: "Chat Completions accepts only PDF files
as file content parts", as base64 ``file_data`` (a data URL) with a ``filename``
(https://developers.openai.com/api/docs/guides/file-inputs). PNG, JPEG, GIF and WebP go as
``image_url`` parts holding a base64 data URL (the Chat Completions API takes images as
input: https://developers.openai.com/api/docs/guides/images-vision; the part shape is the
one OpenAI-compatible servers document too, e.g. DeepSeek, OpenRouter). Other types (.docx,
.odt, .tiff, .txt, .md …) are not sent — their text is already in the prompt — and the
backend logs once per media type that it leaves them out; which files a request carried
follows from its attachments' media types, so results get no extra field. A request with
nothing sendable is sent exactly as without ``send_files``.

The bytes are read from ``Attachment.path`` when the request is sent and checked against
``Attachment.sha256``; a missing file, a hash mismatch, or files over ``max_file_bytes``
together (default 32 MiB of raw bytes per request; base64 adds a third on the wire, so
lower it for a server with a smaller body limit) make a per-sample error naming the file,
and nothing is sent (``attempts`` 0). The cache keeps answers given with files apart from those given without: with
``send_files`` the backend's :attr:`~OpenAIBackend.cache_namespace` gains ``+files`` (the
request's attachments — name, hash, media type — are in the key already). The tokens-per-
minute estimate counts the text only.

HTTP: the backend sends one kind of request (a JSON POST to one URL), so it speaks
HTTP/1.1 itself on asyncio (:class:`AsyncioClient`: keep-alive connections, Content-Length
or chunked bodies, TLS): per request it costs about an eighth of httpx's client CPU and under
half of aiohttp's, and client CPU is what bounds throughput at high concurrency against a
fast server (benchmarks/bench_eval_throughput.py). httpx is used instead when a proxy is set in
the environment (``$HTTPS_PROXY`` …), when ``http_client="httpx"``, or when an httpx
``transport`` is given (e.g. a mock).
"""

from buildds.evaluate.backends.http_transport import DEFAULT_MAX_RESPONSE_BYTES
from buildds.evaluate.backends.openai.backend import HttpClientName, OpenAIBackend
from buildds.evaluate.backends.openai.files import (
    DEFAULT_MAX_FILE_BYTES,
    FILE_MEDIA_TYPES,
    IMAGE_MEDIA_TYPES,
    FileError,
    file_parts,
)
from buildds.evaluate.backends.openai.retry import TokenBucket
from buildds.evaluate.backends.openai.urls import DEFAULT_BASE_URL, check_base_url, endpoint_url
from buildds.evaluate.request_defaults import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_MAX_RETRY_AFTER_S,
    DEFAULT_TIMEOUT_S,
)
from buildds.httputil import parse_retry_after

__all__ = [
    "DEFAULT_BASE_URL", "DEFAULT_MAX_ATTEMPTS", "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_RESPONSE_BYTES", "DEFAULT_MAX_RETRY_AFTER_S", "DEFAULT_TIMEOUT_S",
    "FILE_MEDIA_TYPES", "IMAGE_MEDIA_TYPES", "FileError", "HttpClientName", "OpenAIBackend",
    "TokenBucket", "check_base_url", "endpoint_url", "file_parts", "parse_retry_after",
]
