//! The release files of packaging/release-archive.sh: for x86_64 and
//! aarch64, a binary that needs no glibc symbol newer than 2.17 and no
//! shared library outside glibc, packed as a tar.gz, a .deb and an .rpm
//! with the same files, none of them the system's `ls`. The x86_64 binary
//! runs on Debian 11's C library (2.31) and prints what the host build
//! prints for the shared public corpus, and the same again without statx
//! (the fstatat path of kernels before 4.11, RHEL 7's 3.10); the aarch64
//! binary runs under qemu-aarch64 on Debian 12's arm64 C library and
//! prints what GNU ls prints.
//!
//! They build both binaries (cargo-zigbuild: about two minutes on two
//! cores from scratch, seconds when cached) and fetch two libc6 packages
//! from Debian's archive, so they run only with STATLS_RELEASE_TESTS=1,
//! which .ci/run sets after installing the tools; otherwise, or with a
//! tool missing, they say SKIPPED on stderr and pass.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// (uname -m, Debian's name, ELF machine as readelf spells it, dynamic loader)
const ARCHES: [(&str, &str, &str, &str); 2] = [
    (
        "x86_64",
        "amd64",
        "Advanced Micro Devices X86-64",
        "/lib64/ld-linux-x86-64.so.2",
    ),
    ("aarch64", "arm64", "AArch64", "/lib/ld-linux-aarch64.so.1"),
];

/// What the binaries may link: glibc, whose libpthread, libdl, librt and
/// libm are libraries of their own before 2.34.
const GLIBC_LIBRARIES: [&str; 5] = [
    "libc.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libm.so.6",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The script builds in a target directory of its own: its cargo must not
/// wait for the lock of the `cargo test` running it.
fn target_dir() -> PathBuf {
    root().join("target/release-dist")
}

fn version() -> String {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("version = "))
        .unwrap();
    line.split('"').nth(1).unwrap().to_string()
}

fn works(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The first thing these tests need that is not installed.
fn missing_tool() -> Option<String> {
    let tools = [
        ("cargo-zigbuild", "--version"),
        ("python3", "--version"),
        ("dpkg-deb", "--version"),
        ("rpmbuild", "--version"),
        ("rpm", "--version"),
        ("readelf", "--version"),
        ("objdump", "--version"),
        ("patchelf", "--version"),
        ("qemu-aarch64", "--version"),
        ("apt-get", "--version"),
    ];
    if let Some((tool, _)) = tools.iter().find(|(t, a)| !works(t, a)) {
        return Some(tool.to_string());
    }
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output();
    let sysroot = String::from_utf8_lossy(&sysroot.ok()?.stdout)
        .trim()
        .to_string();
    ARCHES
        .iter()
        .map(|(arch, ..)| format!("{arch}-unknown-linux-gnu"))
        .find(|t| !Path::new(&sysroot).join("lib/rustlib").join(t).exists())
        .map(|t| format!("the Rust standard library for {t} (rustup target add {t})"))
}

/// target/release-dist/dist, built once by the release script; None, with
/// a note, when the tests are not asked for or a tool is missing.
fn dist() -> Option<PathBuf> {
    static DIST: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIST.get_or_init(|| {
        if std::env::var_os("STATLS_RELEASE_TESTS").is_none_or(|v| v != "1") {
            util::skipped("STATLS_RELEASE_TESTS is not 1: the release files were NOT built");
            return None;
        }
        if let Some(tool) = missing_tool() {
            util::skipped(&format!(
                "{tool} is missing: the release files were NOT built"
            ));
            return None;
        }
        let start = std::time::Instant::now();
        let out = Command::new("bash")
            .arg(root().join("packaging/release-archive.sh"))
            .env("CARGO_TARGET_DIR", target_dir())
            .output()
            .expect("run packaging/release-archive.sh");
        assert!(
            out.status.success(),
            "release-archive.sh failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!(
            "release-archive.sh: {:.0} s\n{}",
            start.elapsed().as_secs_f64(),
            String::from_utf8_lossy(&out.stdout)
        );
        Some(target_dir().join("dist"))
    })
    .clone()
}

/// The release binary of `arch`.
fn binary(arch: &str) -> PathBuf {
    target_dir().join(format!("{arch}-unknown-linux-gnu/release/ls"))
}

fn output(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap();
    assert!(out.status.success(), "{program} {args:?} failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// "2.17" as (2, 17).
fn glibc_version(v: &str) -> (u32, u32) {
    let mut parts = v.split('.').map(|p| p.parse().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn binaries_need_glibc_2_17_and_no_library_outside_it() {
    let Some(_) = dist() else { return };
    for (arch, _, machine, loader) in ARCHES {
        let bin = binary(arch);
        let bin = bin.to_str().unwrap();
        let header = output("readelf", &["-h", "-l", bin]);
        assert!(header.contains(machine), "{arch}: not {machine}:\n{header}");
        assert!(
            header.contains(&format!("[Requesting program interpreter: {loader}]")),
            "{arch}: not loaded by {loader}:\n{header}"
        );
        for line in output("readelf", &["-d", bin]).lines() {
            if let Some(lib) = line.split("Shared library: [").nth(1) {
                let lib = lib.trim_end_matches(']');
                assert!(GLIBC_LIBRARIES.contains(&lib), "{arch} needs {lib}");
            }
        }
        // Undefined symbols: versioned at 2.17 at most, or weak (looked up
        // at load time, absent on an older glibc, as std's statx is).
        let symbols = output("objdump", &["-T", bin]);
        let mut versions = 0;
        for line in symbols.lines().filter(|l| l.contains("*UND*")) {
            if let Some(v) = line.split("(GLIBC_").nth(1) {
                let v = v.split(')').next().unwrap();
                assert!(glibc_version(v) <= (2, 17), "{arch} needs {line}");
                versions += 1;
            } else {
                let weak = line.split_whitespace().nth(1) == Some("w");
                assert!(weak, "{arch}: an unversioned strong symbol: {line}");
            }
        }
        assert!(versions > 50, "{arch}: too few glibc symbols:\n{symbols}");
    }
}

/// The files a package installs, as absolute paths, directories left out.
fn files(listing: &str) -> Vec<String> {
    let mut files: Vec<String> = listing
        .lines()
        .map(|l| format!("/{}", l.trim_start_matches("./").trim_start_matches('/')))
        .filter(|l| !l.ends_with('/') && l != "/")
        .collect();
    files.sort();
    files
}

#[test]
fn archive_deb_and_rpm_hold_the_same_files_beside_the_system_ls() {
    let Some(dist) = dist() else { return };
    let v = version();
    for (arch, debarch, ..) in ARCHES {
        let tar = dist.join(format!("statls-{v}-{arch}-linux.tar.gz"));
        let deb = dist.join(format!("statls_{v}-1_{debarch}.deb"));
        let rpm = dist.join(format!("statls-{v}-1.{arch}.rpm"));
        let tar_files = files(&output("tar", &["-tzf", tar.to_str().unwrap()]));
        let deb_tar = format!("dpkg-deb --fsys-tarfile '{}' | tar -t", deb.display());
        let deb_files = files(&output("sh", &["-c", &deb_tar]));
        assert_eq!(
            tar_files, deb_files,
            "{arch}: the archive and the .deb differ"
        );
        let rpm = rpm.to_str().unwrap();
        // `rpm -qpl` lists the directories the package owns too.
        let dirs = output(
            "rpm",
            &["-qp", "--qf", "[%{FILEMODES:perms} %{FILENAMES}\n]", rpm],
        );
        let rpm_files: Vec<String> = dirs
            .lines()
            .filter(|l| !l.starts_with('d'))
            .map(|l| l.split_once(' ').unwrap().1.to_string())
            .collect();
        for wanted in [
            "/usr/lib/statls/bin/ls",
            "/usr/lib/statls/share/man/man1/ls.1.gz",
            "/usr/share/man/man1/statls.1.gz",
            "/usr/share/bash-completion/completions/ls",
            "/usr/share/fish/vendor_completions.d/ls.fish",
        ] {
            for (what, list) in [("tar.gz", &tar_files), ("rpm", &rpm_files)] {
                assert!(
                    list.iter().any(|f| f == wanted),
                    "{arch} {what} lacks {wanted}"
                );
            }
        }
        for list in [&tar_files, &rpm_files] {
            assert!(
                list.iter().any(|f| f.ends_with("/_ls")),
                "{arch}: no zsh completion"
            );
            for taken in ["/bin/ls", "/usr/bin/ls", "/usr/share/man/man1/ls.1.gz"] {
                assert!(!list.iter().any(|f| f == taken), "{arch} installs {taken}");
            }
        }
        assert!(
            dirs.lines()
                .any(|l| l == "-rwxr-xr-x /usr/lib/statls/bin/ls"),
            "{arch}: the rpm's ls is not 0755:\n{dirs}"
        );
        let rpm_arch = output("rpm", &["-qp", "--qf", "%{ARCH}", rpm]);
        assert_eq!(rpm_arch, arch);
        let requires = output("rpm", &["-qpR", rpm]);
        let newest = requires
            .lines()
            .filter_map(|r| r.split("(GLIBC_").nth(1)?.split(')').next())
            .map(glibc_version)
            .max();
        assert_eq!(
            newest,
            Some((2, 17)),
            "{arch}: the rpm requires\n{requires}"
        );
        let control = output(
            "dpkg-deb",
            &["-f", deb.to_str().unwrap(), "Architecture", "Depends"],
        );
        assert_eq!(
            control,
            format!("Architecture: {debarch}\nDepends: libc6 (>= 2.17)\n")
        );
    }
}

/// Debian SUITE's libc6 for ARCH, unpacked once into a directory everyone
/// can read (the corpus runs some cases as nobody), shared between runs.
fn sysroot(suite: &str, arch: &str) -> PathBuf {
    static LOCK: Mutex<()> = Mutex::new(());
    let _one = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let dest = std::env::temp_dir().join(format!("statls-sysroot/{suite}-{arch}"));
    let status = Command::new("bash")
        .arg(root().join("tests/support/libc-sysroot.sh"))
        .args([suite, arch])
        .arg(&dest)
        .status()
        .expect("run libc-sysroot.sh");
    assert!(
        status.success(),
        "libc6 of Debian {suite} {arch} not fetched"
    );
    dest
}

/// The x86_64 release binary, copied into `dir` and set to load Debian 11's
/// C library: its loader, and (DT_RPATH, which reaches the NSS modules that
/// glibc 2.31 loads) its libraries.
fn on_debian_11(dir: &Path) -> PathBuf {
    let libs = sysroot("bullseye", "amd64").join("lib/x86_64-linux-gnu");
    let bin = dir.join("ls");
    std::fs::copy(binary("x86_64"), &bin).unwrap();
    let status = Command::new("patchelf")
        .arg("--set-interpreter")
        .arg(libs.join("ld-linux-x86-64.so.2"))
        .args(["--force-rpath", "--set-rpath"])
        .arg(&libs)
        .arg(&bin)
        .status()
        .unwrap();
    assert!(status.success(), "patchelf failed");
    // Every library it loads is Debian 11's.
    let loaded = Command::new(&bin)
        .env("LD_TRACE_LOADED_OBJECTS", "1")
        .output()
        .unwrap();
    let loaded = String::from_utf8_lossy(&loaded.stdout).into_owned();
    for line in loaded.lines().filter(|l| l.contains("=>")) {
        assert!(
            line.contains(libs.to_str().unwrap()),
            "not Debian 11's: {line}"
        );
    }
    assert!(loaded.contains("libc.so.6"), "{loaded}");
    bin
}

/// A script running the aarch64 release binary under qemu-aarch64 with
/// Debian 12's arm64 C library, as `ls` (argv[0]); it names every program
/// by its path, since the corpus runner gives it a PATH of one directory.
fn under_qemu(dir: &Path) -> PathBuf {
    let sysroot = sysroot("bookworm", "arm64");
    let qemu = output("sh", &["-c", "command -v qemu-aarch64"]);
    let bin = dir.join("ls-aarch64");
    std::fs::copy(binary("aarch64"), &bin).unwrap();
    let script = dir.join("ls");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec '{}' -L '{}' -0 ls '{}' \"$@\"\n",
            qemu.trim(),
            sysroot.display(),
            bin.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// Runs the shared public corpus (../shared/compat) with `reference` and
/// `tested`; skipped, with a note, without the corpus or root (the fixture
/// builder needs it). A failure of TTY cases alone is run once more: the
/// pty copy can lose a last line on a loaded machine (tests/compat.rs).
fn assert_corpus_identical(what: &str, reference: &Path, tested: &Path) {
    let compat = root().join("../shared/compat");
    let (runner, corpus) = (compat.join("lsdiff.sh"), compat.join("cases-public.txt"));
    if !runner.exists() || !corpus.exists() {
        util::skipped(&format!("{} not found: {what} NOT run", corpus.display()));
        return;
    }
    if !output("id", &["-u"]).starts_with("0\n") {
        util::skipped(&format!("the fixture builder needs root: {what} NOT run"));
        return;
    }
    let lsdiff = || {
        let out = Command::new("bash")
            .arg(&runner)
            .arg("-v")
            .arg(&corpus)
            .args([reference, tested])
            .output()
            .expect("run lsdiff.sh");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (mut ok, mut text) = lsdiff();
    let failed: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL L")).collect();
    if !ok && !failed.is_empty() && failed.iter().all(|l| l.contains(" TTY")) {
        eprintln!("note: {what}: TTY cases failed once; running the corpus again");
        (ok, text) = lsdiff();
    }
    eprintln!("{what}: {}", text.lines().last().unwrap_or(""));
    assert!(ok, "{what}:\n{text}");
}

#[test]
fn x86_64_binary_on_debian_11_libc_prints_what_the_host_build_prints() {
    let Some(_) = dist() else { return };
    let dir = util::TempDir::new("release-x86_64");
    let bin = on_debian_11(dir.path());
    // The host build, where every user can run it too.
    let host = dir.path().join("host-ls");
    std::fs::copy(util::ours(), &host).unwrap();
    assert_corpus_identical("x86_64 on glibc 2.31 vs the host build", &host, &bin);
}

#[test]
fn aarch64_binary_under_qemu_prints_what_gnu_ls_prints() {
    let Some(_) = dist() else { return };
    let Some(gnu) = util::gnu() else {
        util::skipped("/bin/ls is not GNU ls 9.1: the aarch64 corpus was NOT run");
        return;
    };
    let dir = util::TempDir::new("release-aarch64");
    let script = under_qemu(dir.path());
    let version = util::run(&script, dir.path(), &["--version"], &[]);
    assert!(version.stdout.starts_with(b"ls (statls)"), "{version:?}");
    assert_corpus_identical("aarch64 under qemu vs GNU ls", &gnu, &script);
}

/// Without statx (a 3.10 kernel, a seccomp profile) the x86_64 release
/// binary takes the fstatat path and prints what the host build prints,
/// on the host's C library and on Debian 11's. Not the aarch64 one under
/// qemu: qemu-user answers a statx the host refuses itself, from fstatat,
/// with an empty stx_mask, so the guest never sees ENOSYS (and is told no
/// field came back).
#[test]
fn x86_64_binary_without_statx_prints_what_the_host_build_prints() {
    let Some(_) = dist() else { return };
    let Some(wrapper) = util::enosys::wrapper() else {
        util::skipped("no C compiler for the seccomp wrapper: NOT run");
        return;
    };
    let dir = util::TempDir::new("release-enosys");
    let x86_64 = binary("x86_64");
    let old = on_debian_11(dir.path());
    let t = util::enosys::fixture();
    for args in util::enosys::CASES {
        let host = util::run(&util::ours(), t.path(), args, &[]);
        assert_eq!(host.status, Some(0), "{args:?}: {host:?}");
        for bin in [&x86_64, &old] {
            let bin = bin.to_str().unwrap();
            let run = util::enosys::run_without(&wrapper, "statx", &[bin], t.path(), args);
            util::assert_same(&format!("{bin} {args:?} without statx"), &host, &run);
        }
    }
}
