#!/bin/bash
# Check the hub and every station before the first round, FROM THE ORGANISER'S LAPTOP (the
# machine whose SSH key the cards were provisioned with: the Pis accept only that key, no
# passwords, so the hub itself cannot log in to the stations):
#
#   provisioning/hall-check.sh --hub hub.local [--gong] station-01 station-02 ...
#   options: --user rozhodci (the SSH login on the Pis), --ssh-opt "-i KEY",
#            --max-offset 0.1 (seconds a station's clock may be off the hub's)
#
# On every Pi (hub and stations):
#   - the root is a read-only overlay NOW (findmnt /, not just the command line) and the data
#     partition is mounted at /srv/samoobsluha (samoobsluha-admin check);
#   - the kiosk is not showing its start-up failure screen, and its word check ("station
#     run") is running and has been for 10 s or more, whatever stops it otherwise: a display
#     that never starts, a crash loop, a stopped unit (stations);
# per station:
#   - the lexicon its station.toml names is identical to the hub's file of the SAME name (a
#     Slovak station against the hub's Slovak lexicon), or to the lexicon the hub published
#     ("hub hall --json") when the hub has no such file;
#   - its clock is synchronised (chronyc tracking: leap status Normal) and within
#     --max-offset of its server, the hub; an unknown clock is a problem, not a shrug;
#   - with --gong, its bell rings (the kiosk holds the GPIO pins, so it is stopped for the
#     test and started again).
# Everything that reads /srv/samoobsluha (0750, the service user's) runs as
# "sudo -n -u samoobsluha" (the admin user may sudo without a password).
# Exit 0 only when everything is OK; 1 when something is not; 2 when the hub is unreachable.
set -uo pipefail

user=rozhodci
hub=""
gong=0
max_offset=0.1
# Seconds the word check ("station run") must have been running: a kiosk in a restart loop
# is up for a second or two at a time.
min_up=${HALL_MIN_UP:-10}
ssh_opts=(-o BatchMode=yes -o ConnectTimeout=5)
stations=()
while [ $# -gt 0 ]; do
    case "$1" in
        --gong) gong=1; shift ;;
        --user) user=$2; shift 2 ;;
        --hub) hub=$2; shift 2 ;;
        --max-offset) max_offset=$2; shift 2 ;;
        --ssh-opt) read -ra extra <<<"$2"; ssh_opts+=("${extra[@]}"); shift 2 ;;
        -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "hall-check: unknown option $1" >&2; exit 2 ;;
        *) stations+=("$1"); shift ;;
    esac
done
[ -n "$hub" ] || {
    echo "hall-check: run it on the laptop with the Pis' SSH key: hall-check.sh --hub hub.local station-01 ..." >&2
    exit 2
}
[ ${#stations[@]} -gt 0 ] || { echo "hall-check: name the stations, e.g. station-01 station-02" >&2; exit 2; }

# HALL_SSH replaces ssh (provisioning/dry-run.sh runs the commands in chroots instead).
SSH=${HALL_SSH:-ssh}
DATA=/srv/samoobsluha
PY=/opt/samoobsluha/bin/python

host_of() { case "$1" in *.*|*:*|localhost) echo "$1" ;; *) echo "$1.local" ;; esac; }
remote() {  # remote HOST COMMAND: one shell command line on a Pi
    local host
    host=$(host_of "$1")
    shift
    # shellcheck disable=SC2029  # the command is meant to expand here and run there
    $SSH "${ssh_opts[@]}" "$user@$host" "$@"
}

# Lexicon files of a Pi's data directory as "NAME SHA256" lines; a station also says which
# one its station.toml names ("configured NAME SHA256", sha "-" when unreadable).
LEX_PY='
import sys
from pathlib import Path
from samoobsluha.shared.lexicon import read_info
for p in sorted(Path(sys.argv[1], "lexicons").glob("*.lex")):
    try:
        print(p.name, read_info(p).sha256)
    except Exception as exc:
        print(p.name, "-", exc)
if len(sys.argv) > 2:
    from samoobsluha.station import config
    lex = config.load(sys.argv[2]).lexicon
    if lex is None:
        print("configured - -")
    else:
        try:
            print("configured", lex.name, read_info(lex).sha256)
        except Exception:
            print("configured", lex.name, "-")
'
PUBLISHED_PY='
import json, sys
report = json.load(sys.stdin)
print(report.get("expected_lexicon") or "")
'
# What a Pi says about itself, one "KEY VALUE" per line: its mounts (samoobsluha-admin
# check's exit code), chrony's leap status and offset, the kiosk's failure screen if shown,
# the kiosk unit's state and how many seconds its word check ("station run", the service
# user's) has been running ("-": none), from /proc itself (no procps needed).
# shellcheck disable=SC2016  # expands on the Pi
STATUS_SH='sudo -n /usr/local/sbin/samoobsluha-admin check >/dev/null 2>&1; echo "mounts $?"
chronyc -n tracking 2>/dev/null | sed -n "s/^Leap status *: */leap /p; s/^System time *: \([0-9.]*\) seconds.*/offset \1/p"
[ -s /run/samoobsluha-kiosk/fallback ] && echo "fallback $(head -n1 /run/samoobsluha-kiosk/fallback)"
up=-
for d in /proc/[0-9]*; do
    [ "$(stat -c %U "$d" 2>/dev/null)" = samoobsluha ] || continue
    case "$(tr "\0" " " < "$d/cmdline" 2>/dev/null)" in
        *"bin/station run"*)
            start=$(sed "s/.*) //" "$d/stat" | cut -d" " -f20)
            up=$(awk -v s="$start" -v hz="$(getconf CLK_TCK)" "{ printf \"%d\", \$1 - s / hz }" /proc/uptime)
            break ;;
    esac
done
echo "kiosk $(systemctl is-active samoobsluha-kiosk 2>/dev/null | head -n1) $up"
true'
q() { printf '%q' "$1"; }
field() { sed -n "s/^$1 //p" <<<"$2" | head -n1; }

bad=0
problem() { bad=$((bad + 1)); }
mounts_text() {  # mounts_text STATUS: "" when fine, else what is wrong
    case "$(field mounts "$1")" in
        0) ;;
        "") echo "mounts UNKNOWN (samoobsluha-admin missing?)" ;;
        *) echo "READ-ONLY ROOT OR DATA PARTITION MISSING (sudo samoobsluha-admin status)" ;;
    esac
}

# --- the hub --------------------------------------------------------------------------------
hub_lex=$(remote "$hub" "sudo -n -u samoobsluha $PY -c $(q "$LEX_PY") $DATA") \
    || { echo "hall-check: cannot read the lexicons on the hub $hub (ssh $user@$(host_of "$hub"))" >&2; exit 2; }
published=$(remote "$hub" "sudo -n -u samoobsluha env SAMOOBSLUHA_DATA=$DATA /usr/local/bin/hub hall --json" 2>/dev/null \
    | python3 -c "$PUBLISHED_PY" 2>/dev/null)
hub_status=$(remote "$hub" "$STATUS_SH" 2>/dev/null)
echo "hub $hub:"
while read -r l; do echo "    lexicon $l"; done <<<"$hub_lex"
[ -n "${published:-}" ] && echo "    published to the stations: $published"
hub_mounts=$(mounts_text "$hub_status")
if [ -n "$hub_mounts" ]; then echo "    $hub_mounts"; problem; else echo "    read-only root, data partition mounted"; fi

# --- the stations ---------------------------------------------------------------------------
for s in "${stations[@]}"; do
    if ! remote "$s" true 2>/dev/null; then
        printf '%-12s UNREACHABLE (ssh %s@%s)\n' "$s" "$user" "$(host_of "$s")"
        problem
        continue
    fi
    line=$(remote "$s" "sudo -n -u samoobsluha $PY -c $(q "$LEX_PY") $DATA /etc/samoobsluha/station.toml" 2>/dev/null \
        | sed -n 's/^configured //p')
    read -r name got <<<"${line:-- -}"
    want=$(awk -v n="$name" '$1 == n { print $2 }' <<<"$hub_lex")
    [ -n "$want" ] && [ "$want" != "-" ] || want=${published:-}
    if [ "$name" = "-" ] || [ -z "$name" ]; then
        lex="NO LEXICON configured"
    elif [ "$got" = "-" ]; then
        lex="$name MISSING or damaged"
    elif [ -z "$want" ]; then
        lex="$name UNKNOWN to the hub (sha ${got:0:12})"
    elif [ "$got" = "$want" ]; then
        lex="$name OK"
    else
        lex="$name DIFFERENT (${got:0:12} vs hub ${want:0:12})"
    fi
    case "$lex" in *" OK") ;; *) problem ;; esac

    status=$(remote "$s" "$STATUS_SH" 2>/dev/null)
    leap=$(field leap "$status")
    offset=$(field offset "$status")
    if [ -z "$leap" ]; then
        clock="UNKNOWN (chronyd not answering)"
    elif [ "$leap" != Normal ]; then
        clock="NOT SYNCHRONISED ($leap)"
    elif ! awk -v o="$offset" -v m="$max_offset" 'BEGIN { exit !(o != "" && o + 0 <= m + 0) }'; then
        clock="OFF by ${offset:-?} s (more than $max_offset s)"
    else
        clock="OK (${offset} s)"
    fi
    case "$clock" in OK*) ;; *) problem ;; esac
    printf '%-12s lexicon %-40s clock %s\n' "$s" "$lex" "$clock"
    mounts=$(mounts_text "$status")
    if [ -n "$mounts" ]; then printf '%-12s %s\n' "$s" "$mounts"; problem; fi
    shown=$(field fallback "$status")
    read -r kiosk_state word_check_up <<<"$(field kiosk "$status")"
    if [ -n "$shown" ]; then
        printf '%-12s KIOSK SHOWS ITS START-UP FAILURE SCREEN (%s)\n' "$s" "$shown"; problem
    elif [ "${kiosk_state:-unknown}" != active ]; then
        # A kiosk in a restart loop is "activating" (auto-restart) most of the time.
        printf '%-12s KIOSK NOT RUNNING (samoobsluha-kiosk is %s)\n' "$s" "${kiosk_state:-unknown}"; problem
    elif ! [ "${word_check_up:--}" -ge "$min_up" ] 2>/dev/null; then
        # Whatever the cause (a display that dies at start, a crash loop): the word check
        # itself must have been running for a while, not just the unit.
        printf '%-12s KIOSK NOT RUNNING (the word check is %s)\n' "$s" \
            "$( [ "${word_check_up:--}" = - ] && echo "not running" || echo "up only ${word_check_up} s: restarting?")"
        problem
    fi

    if [ "$gong" = 1 ]; then
        printf '%-12s ringing the bell now... ' "$s"
        # shellcheck disable=SC2016  # $? and $rc expand on the station
        if remote "$s" 'sudo -n systemctl stop samoobsluha-kiosk &&
                sudo -n -u samoobsluha env SAMOOBSLUHA_DATA=/srv/samoobsluha \
                    SAMOOBSLUHA_CONFIG=/etc/samoobsluha/station.toml /usr/local/bin/station gong test start;
                rc=$?; sudo -n systemctl start samoobsluha-kiosk; exit $rc'; then
            echo "done (did it ring?)"
        else
            echo "FAILED"
            problem
        fi
    fi
done
if [ "$bad" -eq 0 ]; then echo "all ${#stations[@]} stations OK"; else echo "$bad problem(s)"; fi
[ "$bad" -eq 0 ]
