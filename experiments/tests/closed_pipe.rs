//! Output cut short by its reader ends `lexlog` quietly: no panic message.

use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn a_reader_that_stops_early_gets_no_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lexlog"))
        .args(["solve", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one byte, then close the pipe: the report (about 90 KB) is more
    // than a pipe holds, so writing the rest fails.
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
}
