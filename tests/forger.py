"""A cheating player, as a test-only tool (tests/test_net_forged_failover.py; issue 13, the
forged-log attack on failover): ``python tests/forger.py LOG HOME PORT FIRST EPOCH OUT``.

It has what a player at the table has: its own MQ_HOME (CURVE identity and Ed25519 signing key),
the log its peer kept, and the code.  It keeps that log up to the last entry before another seat
acts, appends moves of its choosing with the engine (every hash, chain link, CRC and signature
recomputed; each one legal, and never the move the table's bot would make, so no table rule allows
it), in its own made-up reign ``EPOCH`` (a later epoch than the game's: more up to date than any
honest log, whatever its length), and offers that log to the peer whose ROUTER is 127.0.0.1:PORT
as a follower would: ``hello`` with the forged tail and epochs, then the forged entries when asked
(``fetch_req``).  FIRST is how the first forged entry acts for the other seat: ``table`` (author
-1) or ``seat`` (that seat's author number, the action signed with the forger's own key); or
``own``: the forged tail starts with the forger's own moves, which every other check accepts in a
reign it made up.  The reign's first entry carries the only certificate the forger can make: its
own signed promise of EPOCH (docs/net.md, "Promise certificates": a quorum's are needed).

It speaks the protocol on its own DEALER (net.wire, as a modified client would), patches nothing,
and writes what it saw to OUT (JSON): where it kept the log, the forged entries' ids, the
``fetch_req`` it got and the rewind it was told.  It prints ``ready`` once the log is forged, and
offers it when a line comes on stdin (the caller kills the host in between).
"""
from __future__ import annotations

import json
import os
import sys
import time

import zmq

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from mq.bots import choose  # noqa: E402
from mq.cards import load_default  # noqa: E402
from mq.rules import actors, is_over, legal_actions, new_game, state_hash, step, view  # noqa: E402
from mq.rules.actions import decode as decode_action  # noqa: E402
from mq.rules.actions import encode as encode_action  # noqa: E402
from net import gamelog, identity, incarnation, signing, wire  # noqa: E402

FORGED = 12  # entries appended
PATIENCE_S = 20.0


def _read(home: str, name: str) -> str:
    with open(os.path.join(home, name), encoding="ascii") as f:
        return f.read().strip()


def forge(path: str, seat: int, signer: signing.Signer, first: str, epoch: int) -> tuple[int, list[gamelog.Entry], int]:
    """The forged log written over ``path``'s copy (``path`` + ".forged"): where it keeps the
    honest log, the forged entries, and the seat the first one acts for."""
    cards = load_default()
    old = gamelog.read(path)
    header = old.header
    states = [new_game(header.params, header.seed, cards)]
    for e in old.entries:
        states.append(step(states[-1], decode_action(e.action), cards)[0])
    # "own": its own move first (legal, signed by itself), then the others'; it keeps the log to
    # the last state where the game waits for it at all (a window or the setup asks several seats
    # at once, and in a five-seat game its first turn may not have come yet).
    mine = first == "own"
    kept = next(n for n in range(len(old.entries), -1, -1)
                if not is_over(states[n]) and (seat in actors(states[n]) if mine else actors(states[n])[0] != seat))
    out = path + ".forged"
    lg = gamelog.GameLog.create(out)
    lg.write_header(header)
    for e in old.entries[:kept]:
        lg.append(e)
    state, inc = states[kept], os.urandom(8)
    victim = seat if mine else actors(state)[0]
    for k in range(FORGED):
        if is_over(state):
            break
        who = victim if k == 0 else actors(state)[0]
        bot = choose(view(state, who), who, cards)
        action = next((a for a in legal_actions(state, who, cards) if a != bot), bot)
        state = step(state, action, cards)[0]
        x = encode_action(action)
        author, pid, asig = -1, None, None
        if who == seat or (first == "seat" and k % 2 == 0):  # its own moves, and some made "as" the other seat
            author, pid = who, (inc, k + 1)
            asig = signer.sign_action(header.game, who, pid, x)
        # The made-up reign's certificate: the one promise the forger can sign, its own.
        cert = [(seat, signer.sign_promise(header.game, epoch))] if k == 0 else None
        lg.append(gamelog.decode_entry(gamelog.signed_entry(
            signer, header.game, lg.last_seq + 1, author, pid, x, state_hash(state), lg.last_id, epoch, asig, cert)))
    lg.sync()
    lg.close()
    return kept, gamelog.read(out).entries[kept:], victim


def offer(port: int, key: str, signer: signing.Signer, log_path: str, epoch: int, name: str) -> dict:
    """Offer the forged log to the peer at 127.0.0.1:``port`` until it answers with a welcome."""
    lg = gamelog.read(log_path)
    header, entries = lg.header, lg.entries
    server = header.roster[1][1]  # the candidate after the host: seat 1
    ctx = zmq.Context()
    d = ctx.socket(zmq.DEALER)
    d.linger = 0
    d.curve_publickey, d.curve_secretkey = identity.keypair(key)
    d.curve_serverkey = server.encode()
    d.connect(f"tcp://127.0.0.1:{port}")
    seen: dict = {"retries": 0}
    hello = {"t": "hello", "v": wire.PROTOCOL, "id": identity.public_id(key), "name": name, "role": "play",
             "inc": incarnation.of(proof := os.urandom(16)), "proof": proof,
             "port": 1, "last": len(entries), "tail": [[e.n, e.id] for e in entries][-32:],
             "game": header.game, "epoch": epoch, "lep": epoch, "sign": signer.public,
             "psig": signer.sign_promise(header.game, epoch)}
    end, next_hello = time.monotonic() + PATIENCE_S, 0.0
    try:
        while time.monotonic() < end:
            if "welcome" not in seen and time.monotonic() >= next_hello:
                d.send(wire.pack(hello))
                next_hello = time.monotonic() + 0.1
            if not d.poll(20):
                continue
            msg = wire.unpack(d.recv())
            if msg["t"] == "retry":
                seen["retries"] += 1
            elif msg["t"] == "fetch_req":
                seen["fetch_req"] = msg["from"]
                d.send(wire.pack({"t": "entries", "recs": [e.raw for e in entries[msg["from"] - 1:]]}))
            elif msg["t"] == "refuse":
                seen["refuse"] = msg["text"]
                break
            elif msg["t"] == "welcome" and msg["rewind"] >= 0:
                seen["welcome"] = {"rewind": msg["rewind"], "epoch": msg["epoch"]}
                break
            elif msg["t"] == "welcome":
                seen.setdefault("welcomes", 0)
                seen["welcomes"] += 1
    finally:
        d.close()
        ctx.term()
    return seen


def main(argv: list[str]) -> int:
    log_path, home, port, first, epoch, out = argv[0], argv[1], int(argv[2]), argv[3], int(argv[4]), argv[5]
    key = _read(home, "identity")
    signer = signing.Signer(_read(home, "signing") if os.path.exists(os.path.join(home, "signing"))
                            else signing.seed_for(key))
    header = gamelog.read(log_path).header
    seat = next(s for s, r in enumerate(header.roster) if r[1] == identity.public_id(key))
    kept, forged, victim = forge(log_path, seat, signer, first, epoch)
    print("ready", flush=True)  # forged: the caller kills the host, then says go
    sys.stdin.readline()
    seen = offer(port, key, signer, log_path + ".forged", epoch, f"p{seat}")
    seen.update(kept=kept, seat=seat, victim=victim, forged=[e.id.hex() for e in forged],
                first_author=forged[0].author)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(seen, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
