#!/bin/sh
# What help2man reads of a program (PROGRAM --help or --version): the usage clause joined onto
# one line, as help2man takes continuation lines only when they repeat the program's name, and
# the program's name where Qt's parser, run before QCoreApplication exists, prints
# <executable_name>.
program=$1
shift
"$program" "$@" | awk -v name="$(basename "$program")" '
  { gsub(/<executable_name>/, name) }
  /^[Uu]sage:/ { usage = $0; inusage = 1; next }
  inusage && /^[ \t]+\[/ { sub(/^[ \t]+/, " "); usage = usage $0; next }
  inusage { print usage; inusage = 0 }
  { print }
  END { if (inusage) print usage }'
