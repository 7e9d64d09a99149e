//! What `Probes` promises: every entry probed once, its facts handed over
//! in entry order, with or without a deadline; under one, an entry whose
//! probe answered is never given up.
use super::*;
use crate::config::Config;
use crate::sys::dir::open_dir;
use crate::sys::stat::Base;
use std::ffi::CString;

/// A directory of `n` files, file `i` of `i` bytes.
fn sized_files(n: usize, tag: &str) -> (std::path::PathBuf, Vec<CString>) {
    let dir = std::env::temp_dir().join(format!("statls-probes-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir(&dir).unwrap();
    let names: Vec<CString> = (0..n)
        .map(|i| CString::new(format!("f{i}")).unwrap())
        .collect();
    for (i, name) in names.iter().enumerate() {
        std::fs::write(dir.join(name.to_str().unwrap()), vec![b'x'; i]).unwrap();
    }
    (dir, names)
}

/// The probes `ls -l` makes of directory `path`, on `workers` taking
/// `chunk` entries at a time (`watched`: under a deadline), with what
/// they share.
fn long_listing_probes(
    path: &std::path::Path,
    (workers, chunk): (usize, usize),
    watched: bool,
) -> (Arc<Probes>, Arc<Plan>, Arc<OwnedFd>) {
    let config = Config::load(vec!["ls".into(), "-l".into()]).unwrap();
    // Lent workers run: the pool as a run sizes it.
    parallel::size_probe_pool(&config, 0);
    let shape = Shape {
        workers,
        chunk,
        pace: None,
        watched,
    };
    let plan = Arc::new(Plan::new(&config));
    let c_path = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    let fd = Arc::new(open_dir(Base::Cwd, &c_path).unwrap());
    let dir_path = path.as_os_str().as_encoded_bytes().to_vec();
    let shared = (Arc::clone(&plan), Arc::default());
    let probes = Probes::new(shared, (Arc::clone(&fd), dir_path), shape);
    (probes, plan, fd)
}

/// Defect 2 of the one-engine issue: a worker whose probe answered,
/// then waited longer than the limit for a CPU before it published,
/// has no request in flight: the entry keeps what its probe learned.
#[test]
fn an_entry_that_answered_is_not_given_up_while_its_worker_waits_for_a_cpu() {
    let (path, names) = sized_files(1, "answered");
    let (probes, plan, fd) = long_listing_probes(&path, (1, 1), true);
    probes.add(names.iter().map(|n| (n, FileType::Regular)));
    probes.seal();
    probes.enlist();
    // The worker takes the entry, probes it, and the answer is in...
    let flight = probes.take_chunk().unwrap();
    let xattrs = Arc::default();
    let prober = Prober {
        plan: &plan,
        xattrs: &xattrs,
        dir: InDir {
            fd: fd.as_fd(),
            path: b"",
        },
        lookup: Lookup::ByName,
    };
    let mut facts = FactsList::with_capacity(1);
    facts.push(prober.probe(&names[0], FileType::Regular));
    flight.answer(0, probes.stamp());
    // ...then its thread waits three limits for a CPU before it
    // publishes.
    let limit = Duration::from_millis(100);
    let worker = {
        let probes = Arc::clone(&probes);
        std::thread::spawn(move || {
            std::thread::sleep(3 * limit);
            Probes::publish(&flight, &mut facts);
            probes.retire(&flight);
        })
    };
    let mut sizes = Vec::new();
    probes.run(Some(limit), |facts| {
        sizes.push(
            facts
                .stat
                .map(|s| s.map(|m| m.size()).map_err(|e| e.raw_os_error())),
        );
    });
    worker.join().unwrap();
    let _ = std::fs::remove_dir_all(&path);
    assert_eq!(sizes, [Some(Ok(Some(0)))]);
}

#[test]
fn under_a_deadline_entries_added_while_workers_wait_are_probed_once_each_in_order() {
    let (path, names) = sized_files(150, "order");
    let (probes, _, _) = long_listing_probes(&path, (3, 7), true);
    // Two workers wait for entries before any is added, as while the
    // first getdents answers are read.
    probes.help(2);
    for part in names.chunks(40) {
        probes.add(part.iter().map(|n| (n, FileType::Regular)));
    }
    let mut sizes = Vec::new();
    probes.run(Some(Duration::from_secs(30)), |facts| {
        sizes.push(facts.stat.and_then(Result::ok).and_then(|m| m.size()));
    });
    let _ = std::fs::remove_dir_all(&path);
    let expected: Vec<Option<u64>> = (0..150).map(|i| Some(i as u64)).collect();
    assert_eq!(sizes, expected);
    // Sealed: entries added later are not the directory's.
    probes.add(names.iter().take(1).map(|n| (n, FileType::Regular)));
    assert_eq!(probes.seal(), 150);
}

/// Without a deadline, as while a large directory is read: workers lent
/// to the pool wait for entries, the caller records what is ready as it
/// adds more, and joins the workers once every entry is added.
#[test]
fn without_a_deadline_the_caller_works_too_and_every_entry_comes_once_in_order() {
    let (path, names) = sized_files(300, "blocking");
    let (probes, _, _) = long_listing_probes(&path, (2, 8), false);
    probes.help(probes.workers() - 1);
    let mut sizes = Vec::new();
    let mut record =
        |facts: Facts| sizes.push(facts.stat.and_then(Result::ok).and_then(|m| m.size()));
    for part in names.chunks(50) {
        probes.add(part.iter().map(|n| (n, FileType::Regular)));
        probes.hand_over(&mut record);
    }
    probes.run(None, record);
    let _ = std::fs::remove_dir_all(&path);
    let expected: Vec<Option<u64>> = (0..300).map(|i| Some(i as u64)).collect();
    assert_eq!(sizes, expected);
}
