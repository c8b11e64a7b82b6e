"""Sends notifications with aioapns (PyPI) to a local APNs such as `pushctl mock`.

    python aioapns_driver.py --url https://127.0.0.1:PORT --cacert CA.pem \
        --key-file AuthKey_ID.p8 --key-id ID --team-id TEAM --topic com.example.app \
        --payload payload.json --tokens-file tokens.txt [--count N] [--in-flight 100]

aioapns connects to Apple's hosts on port 443 only: its protocol classes carry the host and
port as class attributes (APNS_SERVER, APNS_PORT), so a subclass with the local ones is
swapped in; TLS verification stays on, with an SSL context trusting the mock's CA and
offering ALPN h2. One
connection (max_connections=1), at most --in-flight notifications awaiting an answer.
Prints "sent N ok N failed N"; exits 0 only when every notification got 200.
"""

import argparse
import asyncio
import json
import ssl
import sys
import uuid
from urllib.parse import urlsplit

from aioapns import APNs, NotificationRequest, PushType
from aioapns import connection as apns_connection


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser()
    for name in ("--url", "--cacert", "--key-file", "--key-id", "--team-id", "--topic", "--payload", "--tokens-file"):
        p.add_argument(name, required=True)
    p.add_argument("--count", type=int, default=0, help="send to the first N tokens only (0: all)")
    p.add_argument("--in-flight", type=int, default=100)
    return p.parse_args()


async def run(args: argparse.Namespace) -> int:
    where = urlsplit(args.url)

    class LocalProtocol(apns_connection.APNsDevelopmentClientProtocol):
        APNS_SERVER = where.hostname
        APNS_PORT = where.port or 443

    with open(args.key_file) as f:
        key = f.read()
    with open(args.payload) as f:
        message = json.load(f)
    with open(args.tokens_file) as f:
        tokens = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if args.count:
        tokens = tokens[: args.count]

    context = ssl.create_default_context(cafile=args.cacert)
    # aioapns offers no ALPN (Apple's servers speak HTTP/2 to it regardless); the mock,
    # like any strict HTTP/2-over-TLS server, insists on ALPN h2.
    context.set_alpn_protocols(["h2"])
    client = APNs(key=key, key_id=args.key_id, team_id=args.team_id, topic=args.topic,
                  use_sandbox=True, max_connections=1, ssl_context=context)
    client.pool.protocol_class = LocalProtocol

    ok = failed = 0
    queue = iter(tokens)

    async def worker() -> None:
        nonlocal ok, failed
        for token in queue:
            request = NotificationRequest(device_token=token, message=message, notification_id=str(uuid.uuid4()),
                                          push_type=PushType.ALERT, priority=10)
            result = await client.send_notification(request)
            if result.is_successful:
                ok += 1
            else:
                if failed < 5:
                    print(f"{token}: {result.status} {result.description}", file=sys.stderr)
                failed += 1

    await asyncio.gather(*(worker() for _ in range(args.in_flight)))
    client.pool.close()
    print(f"sent {len(tokens)} ok {ok} failed {failed}")
    return 0 if ok == len(tokens) and failed == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(run(parse_args())))
