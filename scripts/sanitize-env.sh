# Sanitizer settings for build-sanitize/ (make sanitize): every ASan, UBSan or LSan report is
# fatal. Sourced (by the Makefile and scripts/sanitize-runs.sh) from the repository's root, or
# with MANTRA_ROOT set to it. tests/sanitize/lsan.supp lists the only suppressions, each with
# its reason.
_mantra_root="${MANTRA_ROOT:-$PWD}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$_mantra_root/tests/sanitize/lsan.supp:print_suppressions=0"
unset _mantra_root
