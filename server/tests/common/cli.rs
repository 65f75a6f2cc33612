//! Running the `lexpilot` binary as a maintainer does.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `lexpilot` with `args`, `stdin` written to its standard input.
pub fn lexpilot(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lexpilot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("lexpilot starts");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("lexpilot ends")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `content` to `dir/name`; the path as a string.
pub fn write(dir: &Path, name: &str, content: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write fixture");
    path.to_string_lossy().into_owned()
}
