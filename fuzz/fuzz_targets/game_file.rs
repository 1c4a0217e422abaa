#![no_main]
// The body lives in carom-fuzz-harness, so that the corpus replay test runs it on stable.
libfuzzer_sys::fuzz_target!(|data: &[u8]| carom_fuzz_harness::game_file(data));
