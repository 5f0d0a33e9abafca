#!/usr/bin/env python3
"""Writes a Go fuzz seed corpus: seed.py DIR/testdata/fuzz/FuzzName TYPE VALUE...
TYPE is bytes or string; each VALUE becomes one file (names seed-01, seed-02, ...).
Kept so the corpora under services/*/testdata/fuzz can be regenerated; go test reads the files."""
import os, sys

def gq(b: bytes) -> str:
    out = []
    for ch in b:
        c = chr(ch)
        if c == '"': out.append('\\"')
        elif c == '\\': out.append('\\\\')
        elif 0x20 <= ch < 0x7f: out.append(c)
        else: out.append('\\x%02x' % ch)
    return '"' + ''.join(out) + '"'

def write(d, typ, values):
    os.makedirs(d, exist_ok=True)
    for i, v in enumerate(values, 1):
        b = v if isinstance(v, bytes) else v.encode()
        with open(os.path.join(d, 'seed-%02d' % i), 'w') as f:
            f.write('go test fuzz v1\n%s(%s)\n' % ('[]byte' if typ == 'bytes' else 'string', gq(b)))

if __name__ == '__main__':
    write(sys.argv[1], sys.argv[2], sys.argv[3:])
