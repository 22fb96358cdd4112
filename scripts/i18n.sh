#!/usr/bin/env bash
# The message catalogues (dealer_assist/i18n.py): extract the messages from the code, merge them
# into each language's .po, and compile the .mo files the runtime reads.  Needs Babel (the
# "test" extra).  After it, translate the new entries of dealer_assist/locale/ja/LC_MESSAGES/
# dealer_assist.po (msgstr "" is a missing translation: tests/test_i18n.py fails on it) and run
# it again to compile.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-$(dirname "$(command -v python3)")/pybabel}
[ -x .venv/bin/pybabel ] && PYBABEL=.venv/bin/pybabel
LOCALE=dealer_assist/locale
POT=$LOCALE/dealer_assist.pot
"$PYBABEL" -q extract -F babel.cfg -k _n:1,2 -k _p:1c,2 --no-location --sort-output \
    --project dealer-assist --version 0.1.0 --msgid-bugs-address "" --copyright-holder "" \
    -o "$POT" .
for lang in en ja; do
    if [ -f "$LOCALE/$lang/LC_MESSAGES/dealer_assist.po" ]; then
        "$PYBABEL" -q update -i "$POT" -d "$LOCALE" -D dealer_assist -l "$lang" \
            --no-fuzzy-matching --ignore-obsolete
    else
        "$PYBABEL" -q init -i "$POT" -d "$LOCALE" -D dealer_assist -l "$lang"
    fi
done
"$PYBABEL" -q compile -d "$LOCALE" -D dealer_assist
