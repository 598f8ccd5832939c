# One row of `make bench`'s closing table. bench/run-all.sh collects the lines that start with
# @summary from every benchmark's output; C++ benchmarks print the same line themselves.
# Fields, tab-separated: figure, ours, peer, ratio, goal, met|missed ("-" where there is none).

# summary FIGURE OURS PEER RATIO GOAL MET
summary() {
  printf '@summary\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6"
}

# summary_ratio FIGURE OURS PEER MIN_RATIO [PEER_NAME]: higher is better, goal ours/peer >= MIN.
summary_ratio() {
  local r met
  r=$(awk -v a="$2" -v b="$3" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  met=$(awk -v r="$r" -v g="$4" 'BEGIN { print (r != "-" && r + 0 >= g) ? "met" : "missed" }')
  summary "$1" "$2" "$3${5:+ ($5)}" "${r}x" ">= $4x" "$met"
}

# summary_within FIGURE OURS PEER MAX_RATIO [PEER_NAME]: lower is better (a time), ours/peer <= MAX.
summary_within() {
  local r met
  r=$(awk -v a="$2" -v b="$3" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  met=$(awk -v r="$r" -v g="$4" 'BEGIN { print (r != "-" && r + 0 <= g) ? "met" : "missed" }')
  summary "$1" "$2" "$3${5:+ ($5)}" "${r}x" "<= $4x" "$met"
}

# summary_below FIGURE OURS LIMIT UNIT: an absolute goal, ours < LIMIT.
summary_below() {
  local met
  met=$(awk -v a="$2" -v g="$3" 'BEGIN { print (a + 0 < g) ? "met" : "missed" }')
  summary "$1" "$2 $4" "-" "-" "< $3 $4" "$met"
}
