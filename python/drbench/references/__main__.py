"""python3 -m drbench.references NAME INPUT.h5 OUTPUT.h5   run one reference as drbench's command
python3 -m drbench.references --list                       the references and whether each imports
python3 -m drbench.references --yaml NAME [LABEL]          the config entry that runs NAME
"""

import sys

from drbench.references import REFERENCES, available, config_entry, search_path


def main(argv):
    if argv[:1] == ["--list"]:
        print(f"# packages looked up first in {search_path()}")
        for name, ref in REFERENCES.items():
            ok, what = available(name)
            print(f"{name:18} {'yes' if ok else 'no ':3} "
                  f"{'maps new points' if ref.out_of_sample else 'transductive':16} "
                  f"{what if ok else what}")
        return 0
    if argv[:1] == ["--yaml"] and len(argv) in (2, 3):
        if argv[1] not in REFERENCES:
            sys.exit(f"unknown reference {argv[1]!r}; known: {', '.join(REFERENCES)}")
        sys.stdout.write(config_entry(argv[1], argv[2] if len(argv) == 3 else None))
        return 0
    if len(argv) != 3 or argv[0] not in REFERENCES:
        sys.exit(__doc__ + f"known references: {', '.join(REFERENCES)}")
    ref = REFERENCES[argv[0]]
    ok, why = available(argv[0])
    if not ok:
        sys.exit(f"drbench.references {argv[0]}: {why}")
    ref.method.main(argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
