#!/bin/bash
# Check every station from the hub before the first round: reachable, lexicon identical to
# the hub's, time following the hub, and (with --gong) its bell.
#
#   provisioning/hall-check.sh [--gong] [--user rozhodci] [--lexicon FILE] station-01 station-02 ...
#
# Needs SSH access to the stations (hub provision ... --ssh-key). The kiosk holds the GPIO
# pins, so --gong stops it on that station for the test and starts it again.
set -uo pipefail

user=rozhodci
lexicon=/srv/samoobsluha/lexicons/cs.lex
gong=0
stations=()
while [ $# -gt 0 ]; do
    case "$1" in
        --gong) gong=1; shift ;;
        --user) user=$2; shift 2 ;;
        --lexicon) lexicon=$2; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) stations+=("$1"); shift ;;
    esac
done
[ ${#stations[@]} -gt 0 ] || { echo "hall-check: name the stations, e.g. station-01 station-02" >&2; exit 2; }

sha_of() { sed -n 's/^sha256: //p'; }
want=$(hub lexicon info "$lexicon" | sha_of)
[ -n "$want" ] || { echo "hall-check: cannot read $lexicon on the hub" >&2; exit 2; }
echo "hub lexicon $lexicon sha256 $want"

bad=0
for s in "${stations[@]}"; do
    host=$s
    case "$host" in *.*) ;; *) host=$s.local ;; esac
    ssh_run() { ssh -o BatchMode=yes -o ConnectTimeout=5 "$user@$host" "$@"; }
    if ! ssh_run true 2>/dev/null; then
        printf '%-12s UNREACHABLE\n' "$s"
        bad=$((bad + 1))
        continue
    fi
    got=$(ssh_run sudo -u samoobsluha /usr/local/bin/hub lexicon info "$lexicon" 2>/dev/null | sha_of)
    lex=OK
    [ "$got" = "$want" ] || { lex="DIFFERENT (${got:-missing})"; bad=$((bad + 1)); }
    # chronyc tracking: "Reference ID : C0A83202 (hub.local)" and "System time : ... seconds"
    time=$(ssh_run chronyc -n tracking 2>/dev/null \
        | sed -n 's/^System time *: \([0-9.]*\) seconds \(slow\|fast\).*/\1 s \2/p')
    printf '%-12s lexicon %-10s clock offset %s\n' "$s" "$lex" "${time:-unknown}"
    if [ "$gong" = 1 ]; then
        printf '%-12s ringing the bell now... ' "$s"
        # shellcheck disable=SC2016  # $? and $rc expand on the station
        if ssh_run 'sudo systemctl stop samoobsluha-kiosk &&
                sudo -u samoobsluha env SAMOOBSLUHA_DATA=/srv/samoobsluha \
                    SAMOOBSLUHA_CONFIG=/etc/samoobsluha/station.toml station gong test start;
                rc=$?; sudo systemctl start samoobsluha-kiosk; exit $rc'; then
            echo "done (did it ring?)"
        else
            echo "FAILED"
            bad=$((bad + 1))
        fi
    fi
done
[ "$bad" -eq 0 ] && echo "all ${#stations[@]} stations OK" || echo "$bad problem(s)"
[ "$bad" -eq 0 ]
