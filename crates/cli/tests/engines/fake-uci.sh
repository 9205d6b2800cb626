#!/bin/sh
# A scripted UCI engine for the `arbiter match` tests (crates/cli/tests/matches.rs);
# written by hand. It speaks just enough UCI and plays by its mode:
#
#   fake-uci.sh shuffle          knights out and back: g1f3 f3g1 … as White,
#                                g8f6 f6g8 … as Black (needs them on g1 and g8)
#   fake-uci.sh white-forfeits   as White the illegal e2e5; as Black, shuffle
#   fake-uci.sh rendezvous DIR   at its first go, waits (up to 20 s) until another
#                                engine process has reached its first go in DIR,
#                                then answers e2e5 for ever (illegal); a2a5 if
#                                it waited alone (illegal too, but tells apart)
mode=$1
dir=$2
n=0
side=w
met=
while read -r line; do
  case "$line" in
    uci) echo "id name fake-$mode"; echo uciok ;;
    isready) echo readyok ;;
    position*)
      # The side to move at the start, and the number of moves after it.
      set -- $line
      if [ "$2" = fen ]; then side=$4; else side=w; fi
      n=0
      after=0
      for w in $line; do
        if [ $after = 1 ]; then n=$((n + 1)); fi
        if [ "$w" = moves ]; then after=1; fi
      done ;;
    go*)
      if [ $((n % 2)) -eq 0 ]; then
        k=$((n / 2)); me=$side
      else
        k=$(((n - 1) / 2))
        if [ "$side" = w ]; then me=b; else me=w; fi
      fi
      if [ "$me" = w ]; then
        if [ $((k % 2)) -eq 0 ]; then m=g1f3; else m=f3g1; fi
      else
        if [ $((k % 2)) -eq 0 ]; then m=g8f6; else m=f6g8; fi
      fi
      case $mode in
        white-forfeits) if [ "$me" = w ]; then m=e2e5; fi ;;
        rendezvous)
          if [ -z "$met" ]; then
            touch "$dir/$$"
            i=0
            while [ "$(ls "$dir" | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do
              sleep 0.1
              i=$((i + 1))
            done
            if [ "$(ls "$dir" | wc -l)" -ge 2 ]; then met=e2e5; else met=a2a5; fi
          fi
          m=$met ;;
      esac
      echo "info depth 1 score cp 0"
      echo "bestmove $m" ;;
    quit) exit 0 ;;
  esac
done
