#!/usr/bin/env python3
"""What release-archive.sh needs from Cargo.toml, as text for the shell.

    pkgmeta.py version                      the package version
    pkgmeta.py stage deb|rpm BINARY DIR     install that package's assets
                                            into DIR, the binary from BINARY,
                                            man pages gzipped
    pkgmeta.py control DEBARCH DEPENDS DIR  DEBIAN/control for the tree DIR
    pkgmeta.py spec RPMARCH DIR             an RPM spec packaging the tree DIR

The layouts are the `assets` of [package.metadata.deb] and
[package.metadata.generate-rpm], so cargo-deb, cargo-generate-rpm and this
script install the same files.
"""

import gzip
import os
import shutil
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILT = "target/release/ls"


def manifest():
    with open(os.path.join(ROOT, "Cargo.toml"), "rb") as f:
        return tomllib.load(f)


def assets(kind):
    """(source, destination, mode) of each asset, destinations absolute."""
    meta = manifest()["package"]["metadata"]
    if kind == "deb":
        return [(s, "/" + d.lstrip("/"), m) for s, d, m in meta["deb"]["assets"]]
    return [
        (a["source"], "/" + a["dest"].lstrip("/"), a["mode"])
        for a in meta["generate-rpm"]["assets"]
    ]


def is_man_page(dest):
    return "/share/man/" in dest


def stage(kind, binary, tree):
    for source, dest, mode in assets(kind):
        source = binary if source == BUILT else os.path.join(ROOT, source)
        target = os.path.join(tree, dest.lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if is_man_page(dest):
            target += ".gz"
            with open(source, "rb") as src, open(target, "wb") as raw:
                # mtime 0 and no name: the same bytes on every build.
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                    shutil.copyfileobj(src, gz)
        else:
            shutil.copyfile(source, target)
        os.chmod(target, int(mode, 8))


def files(tree):
    """Every file of the tree, as absolute paths of the installed system."""
    found = []
    for top, _, names in os.walk(tree):
        for name in names:
            rel = os.path.relpath(os.path.join(top, name), tree)
            if not rel.startswith("DEBIAN"):
                found.append("/" + rel)
    return sorted(found)


def control(arch, depends, tree):
    package = manifest()["package"]
    deb = package["metadata"]["deb"]
    size = sum(os.path.getsize(os.path.join(tree, f.lstrip("/"))) for f in files(tree))
    long = " ".join(deb["extended-description"].split())
    lines = [
        f"Package: {deb.get('name', package['name'])}",
        f"Version: {package['version']}-1",
        f"Architecture: {arch}",
        f"Maintainer: {deb['maintainer']}",
        f"Installed-Size: {(size + 1023) // 1024}",
        f"Depends: {deb['depends'].replace('$auto', depends)}",
        f"Section: {deb['section']}",
        f"Priority: {deb['priority']}",
        f"Description: {package['description']}",
        f" {long}",
    ]
    return "\n".join(lines) + "\n"


def spec(arch, tree):
    package = manifest()["package"]
    docs = {d for _, d, _ in assets("rpm") if "/licenses/" in d or is_man_page(d)}
    # The package owns its own directories: those named statls and below.
    own = set()
    for f in files(tree):
        parts = f.split("/")[:-1]
        if "statls" in parts:
            for end in range(parts.index("statls") + 1, len(parts) + 1):
                own.add("/".join(parts[:end]))
    own = sorted(own)
    listed = []
    for f in files(tree):
        bare = f[:-3] if f.endswith(".gz") else f
        mark = "%license " if "/licenses/" in f else "%doc " if bare in docs else ""
        listed.append(mark + f)
    long = " ".join(package["metadata"]["deb"]["extended-description"].split())
    return f"""\
Name: {package['name']}
Version: {package['version']}
Release: 1
Summary: {package['description']}
License: {package['license']}
# The architecture is rpmbuild's --target. The binaries are built and
# checked by release-archive.sh: rpmbuild is not to strip them, make debug
# packages or run the host's post-install scripts.
%global debug_package %{{nil}}
%global __os_install_post %{{nil}}
%global _build_id_links none

%description
{long}

%install
mkdir -p %{{buildroot}}
cp -a {tree}/. %{{buildroot}}/

%files
""" + "".join(f"%dir {d}\n" for d in own) + "".join(f"{l}\n" for l in listed)


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "version":
        print(manifest()["package"]["version"])
    elif cmd == "stage":
        stage(*args)
    elif cmd == "control":
        sys.stdout.write(control(*args))
    elif cmd == "spec":
        sys.stdout.write(spec(*args))
    else:
        sys.exit(f"pkgmeta.py: unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
