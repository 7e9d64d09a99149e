//! The shared differential corpus (../shared/compat/cases-public.txt) run
//! through its own runner: every case must be identical to GNU ls 9.1 in
//! stdout, stderr and exit status, in pipe and tty mode. Skipped, with a
//! note, when the corpus, root or GNU ls 9.1 is not available.

mod util;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn public_corpus_is_identical_to_gnu() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let compat = root.join("../shared/compat");
    let runner = compat.join("lsdiff.sh");
    if !runner.exists() {
        eprintln!("skipping: {} not found", runner.display());
        return;
    }
    if util::gnu().is_none() {
        eprintln!("skipping: /bin/ls is not GNU ls 9.1");
        return;
    }
    if !rustix_is_root() {
        eprintln!("skipping: the fixture builder needs root");
        return;
    }
    let out = Command::new("bash")
        .arg(&runner)
        .arg("-v")
        .arg(compat.join("cases-public.txt"))
        .arg("/bin/ls")
        .arg(util::ours())
        .output()
        .expect("run lsdiff.sh");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("").to_string();
    eprintln!("{last}");
    assert!(
        out.status.success(),
        "differential corpus failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn rustix_is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}
