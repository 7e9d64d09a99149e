/*
 * latfs: a read-only FUSE passthrough that adds latency and counts requests.
 *
 * It mirrors SOURCE at MOUNTPOINT through libfuse3's low-level API and
 * sleeps `delay_us` before answering each request, so that a local
 * directory behaves like a network filesystem with that round-trip time.
 * `timeout` sets the entry and attribute cache lifetimes the kernel is told
 * (0 = every access revalidates, like NFS with actimeo=0; 60 = warm cache).
 * Requests run on a multi-threaded session loop, so a client that overlaps
 * its requests sees them overlap here too; the maximum number in flight
 * is recorded.
 *
 * usage: latfs SOURCE MOUNTPOINT [-f] [-o OPT[,OPT...]]
 *   -o delay_us=N     sleep before each reply (default 1000)
 *   -o timeout=S      entry/attr timeout in seconds (default 0)
 *   -o readdirplus    answer READDIRPLUS (off by default: plain READDIR)
 *   -o stats=PATH     SIGUSR1 writes the counters to PATH (atomically,
 *                     via PATH.tmp + rename); SIGUSR2 resets them
 *   -o max_threads=N  worker threads (default here 64; libfuse's is 10)
 *   plus the usual libfuse options (-d, -s, -o fsname=..., ...)
 *
 * Fault and hang injection (for tests; OP is one of lookup, getattr,
 * readlink, getxattr, opendir, readdir, read; a request "matches" when the name
 * of the file it is about, as last looked up, matches the fnmatch(3)
 * pattern NAME_GLOB, or always when no pattern is given):
 *   -o fail_op=OP          fail matching OP requests ...
 *   -o fail_errno=N        ... with errno N (default EIO) ...
 *   -o fail_name=GLOB      ... for names matching GLOB ...
 *   -o fail_every=N        ... only every N-th matching one (default 1)
 *   -o hang_op=OP          delay matching OP requests ...
 *   -o hang_name=GLOB      ... for names matching GLOB ...
 *   -o hang_ms=N           ... by N ms (default 10000) before answering ...
 *   -o hang_nth=N          ... only the N-th matching one (default: all) ...
 *   -o hang_flag=PATH      ... only while PATH (outside the mount) exists,
 *                          so that a test can set up (e.g. chdir into the
 *                          mount) before the hang begins ...
 *   -o hang_intr           ... but answer EINTR at once when the kernel
 *                          sends a FUSE INTERRUPT for the request (a
 *                          signal reached the caller); without it the
 *                          request runs its full time, as on a server
 *                          that ignores interrupts
 * The same settings may come from the environment: LATFS_FAIL_OP,
 * LATFS_FAIL_ERRNO, LATFS_FAIL_NAME, LATFS_FAIL_EVERY, LATFS_HANG_OP,
 * LATFS_HANG_NAME, LATFS_HANG_MS, LATFS_HANG_FLAG, LATFS_HANG_INTR=1 (options win).
 *
 * Counters file: one "TYPE count" line per request type, then
 * "total N" (all requests the kernel waits for, i.e. all but FORGET and
 * BATCH_FORGET, which have no reply and are not delayed) and
 * "max_inflight N".
 *
 * Build: gcc -O2 -Wall -Wextra latfs.c $(pkg-config --cflags --libs fuse3)
 */
#define FUSE_USE_VERSION 312
#define _GNU_SOURCE

#include <fuse_lowlevel.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

/* ---- options ------------------------------------------------------------ */

struct options {
	char *source;
	char *stats;
	unsigned long delay_us;
	double timeout;
	int readdirplus;
	/* fault injection */
	char *fail_op;
	char *fail_name;
	int fail_errno;
	unsigned long fail_every;
	/* hang injection */
	char *hang_op;
	char *hang_name;
	char *hang_flag;
	unsigned long hang_nth;
	unsigned long hang_ms;
	int hang_intr;
};

static struct options opt = {
	.delay_us = 1000, .timeout = 0,
	.fail_errno = EIO, .fail_every = 1, .hang_ms = 10000,
};

/* ---- counters ----------------------------------------------------------- */

enum op {
	OP_LOOKUP, OP_FORGET, OP_BATCH_FORGET, OP_GETATTR, OP_READLINK,
	OP_OPENDIR, OP_READDIR, OP_READDIRPLUS, OP_RELEASEDIR, OP_OPEN,
	OP_READ, OP_RELEASE, OP_GETXATTR, OP_LISTXATTR, OP_STATFS, OP_ACCESS,
	OP_COUNT
};

static const char *const op_name[OP_COUNT] = {
	"LOOKUP", "FORGET", "BATCH_FORGET", "GETATTR", "READLINK",
	"OPENDIR", "READDIR", "READDIRPLUS", "RELEASEDIR", "OPEN",
	"READ", "RELEASE", "GETXATTR", "LISTXATTR", "STATFS", "ACCESS",
};

static atomic_ulong count[OP_COUNT];
static atomic_long inflight;
static atomic_long max_inflight;

/* Raise max_inflight to at least n (lock-free: racing workers retry). */
static void note_inflight(long n)
{
	long m = atomic_load(&max_inflight);
	while (n > m && !atomic_compare_exchange_weak(&max_inflight, &m, n))
		;
}

/*
 * Called at the start of every request that gets a reply: count it, mark
 * it in flight, then wait out the simulated round trip. Sleeping first
 * means the work below sees the source as it is when the reply leaves.
 */
static void begin(enum op op)
{
	atomic_fetch_add(&count[op], 1);
	note_inflight(atomic_fetch_add(&inflight, 1) + 1);
	if (opt.delay_us) {
		struct timespec ts = {
			.tv_sec = opt.delay_us / 1000000,
			.tv_nsec = (long)(opt.delay_us % 1000000) * 1000,
		};
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
	}
}

/* Called just before the reply is sent. */
static void end(void)
{
	atomic_fetch_sub(&inflight, 1);
}

/* ---- fault and hang injection ------------------------------------------ */

/* Request types that can be injected, by option name. */
static const struct {
	const char *name;
	enum op op;
} injectable[] = {
	{ "lookup", OP_LOOKUP }, { "getattr", OP_GETATTR },
	{ "readlink", OP_READLINK }, { "getxattr", OP_GETXATTR },
	{ "opendir", OP_OPENDIR }, { "readdir", OP_READDIR },
	{ "read", OP_READ },
};

static int op_is(const char *name, enum op op)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof injectable / sizeof *injectable; i++)
		if (!strcmp(injectable[i].name, name))
			return injectable[i].op == op ||
			       (op == OP_READDIRPLUS && injectable[i].op == OP_READDIR);
	return 0;
}

static int name_matches(const char *glob, const char *name)
{
	return !glob || fnmatch(glob, name, 0) == 0;
}

static atomic_ulong fail_seen;
static atomic_ulong hang_seen;

/*
 * Called after begin() by the injectable requests, with the name of the
 * file the request is about. Hangs when asked (returning EINTR if the
 * request is interrupted and hang_intr is set), then returns the errno to
 * fail with, or 0 to go on.
 */
static int inject(fuse_req_t req, enum op op, const char *name)
{
	if (op_is(opt.hang_op, op) && name_matches(opt.hang_name, name) &&
	    (!opt.hang_flag || access(opt.hang_flag, F_OK) == 0) &&
	    (!opt.hang_nth || atomic_fetch_add(&hang_seen, 1) + 1 == opt.hang_nth)) {
		struct timespec start, now, tick = { 0, 1000000 };

		clock_gettime(CLOCK_MONOTONIC, &start);
		for (;;) {
			if (opt.hang_intr && fuse_req_interrupted(req))
				return EINTR;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((now.tv_sec - start.tv_sec) * 1000 +
			    (now.tv_nsec - start.tv_nsec) / 1000000 >=
			    (long)opt.hang_ms)
				break;
			nanosleep(&tick, NULL);
		}
	}
	if (op_is(opt.fail_op, op) && name_matches(opt.fail_name, name)) {
		unsigned long n = atomic_fetch_add(&fail_seen, 1) + 1;
		if (opt.fail_every <= 1 || n % opt.fail_every == 0)
			return opt.fail_errno;
	}
	return 0;
}

/* Forgets have no reply: the kernel does not wait, so no delay either. */
static void count_only(enum op op)
{
	atomic_fetch_add(&count[op], 1);
}

static void write_stats(void)
{
	char tmp[PATH_MAX];
	unsigned long total = 0;
	FILE *f;

	if (!opt.stats)
		return;
	snprintf(tmp, sizeof tmp, "%s.tmp", opt.stats);
	f = fopen(tmp, "w");
	if (!f) {
		perror(tmp);
		return;
	}
	for (int i = 0; i < OP_COUNT; i++) {
		unsigned long n = atomic_load(&count[i]);
		fprintf(f, "%s %lu\n", op_name[i], n);
		if (i != OP_FORGET && i != OP_BATCH_FORGET)
			total += n;
	}
	fprintf(f, "total %lu\n", total);
	fprintf(f, "max_inflight %ld\n", atomic_load(&max_inflight));
	/* rename() so that a reader never sees a half-written file. */
	if (fclose(f) != 0 || rename(tmp, opt.stats) != 0)
		perror(opt.stats);
}

static void reset_stats(void)
{
	for (int i = 0; i < OP_COUNT; i++)
		atomic_store(&count[i], 0);
	/* Requests still running keep counting towards the new maximum. */
	atomic_store(&max_inflight, atomic_load(&inflight));
}

/*
 * SIGUSR1/SIGUSR2 are blocked in every thread (the mask is set before any
 * thread starts) and taken here with sigwait, so the stats code runs in a
 * normal thread context rather than in a signal handler.
 */
static void *signal_thread(void *arg)
{
	sigset_t *set = arg;
	int sig;

	for (;;) {
		if (sigwait(set, &sig) != 0)
			continue;
		if (sig == SIGUSR1)
			write_stats();
		else if (sig == SIGUSR2)
			reset_stats();
	}
	return NULL;
}

/* ---- inodes ------------------------------------------------------------- */

/*
 * Each inode the kernel knows holds an O_PATH fd on the source object, so
 * requests never re-walk source paths. Inodes are found again by
 * (st_dev, st_ino) so that hard links and repeated lookups share one
 * node; nlookup follows the kernel's lookup count and the node is freed
 * when FORGET brings it to zero.
 */
struct inode {
	struct inode *next;	/* hash chain */
	int fd;
	dev_t dev;
	ino_t ino;
	uint64_t nlookup;
	char name[NAME_MAX + 1];	/* as first looked up, for injection */
};

#define NBUCKETS 4096
static struct inode *bucket[NBUCKETS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct inode root = { .fd = -1 };

static struct inode *inode_of(fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &root : (struct inode *)(uintptr_t)ino;
}

static fuse_ino_t ino_of(struct inode *in)
{
	return in == &root ? FUSE_ROOT_ID : (fuse_ino_t)(uintptr_t)in;
}

static struct inode **slot(dev_t dev, ino_t ino)
{
	return &bucket[(ino ^ (ino >> 12) ^ dev) % NBUCKETS];
}

/*
 * Take one lookup reference on the node for st, creating it with fd (which
 * it then owns) if needed; an existing node keeps its own fd and fd is
 * closed.
 */
static struct inode *inode_ref(int fd, const struct stat *st, const char *name)
{
	struct inode *in;

	if (st->st_dev == root.dev && st->st_ino == root.ino) {
		close(fd);
		return &root;	/* ".." of a top-level dir, or a bind loop */
	}
	pthread_mutex_lock(&table_lock);
	for (in = *slot(st->st_dev, st->st_ino); in; in = in->next)
		if (in->dev == st->st_dev && in->ino == st->st_ino)
			break;
	if (in) {
		in->nlookup++;
		close(fd);
	} else if ((in = calloc(1, sizeof *in))) {
		struct inode **s = slot(st->st_dev, st->st_ino);
		in->fd = fd;
		in->dev = st->st_dev;
		in->ino = st->st_ino;
		in->nlookup = 1;
		snprintf(in->name, sizeof in->name, "%s", name);
		in->next = *s;
		*s = in;
	} else {
		close(fd);
	}
	pthread_mutex_unlock(&table_lock);
	return in;
}

static void inode_unref(struct inode *in, uint64_t n)
{
	struct inode **p;

	if (in == &root)
		return;
	pthread_mutex_lock(&table_lock);
	in->nlookup -= n < in->nlookup ? n : in->nlookup;
	if (in->nlookup == 0) {
		for (p = slot(in->dev, in->ino); *p != in; p = &(*p)->next)
			;
		*p = in->next;
		close(in->fd);
		free(in);
	}
	pthread_mutex_unlock(&table_lock);
}

/* "/proc/self/fd/N": how xattr, open and access calls reach an O_PATH fd. */
static void proc_path(char buf[64], int fd)
{
	snprintf(buf, 64, "/proc/self/fd/%d", fd);
}

static int stat_fd(int fd, struct stat *st)
{
	return fstatat(fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
}

/*
 * Look name up in parent and fill e (with a reference taken). A missing
 * name gives a negative entry (ino 0) that the kernel may cache for
 * `timeout`, as a network filesystem's client would. Returns 0 or errno.
 */
static int do_lookup(struct inode *parent, const char *name,
		     struct fuse_entry_param *e)
{
	struct inode *in;
	int fd;

	memset(e, 0, sizeof *e);
	e->attr_timeout = opt.timeout;
	e->entry_timeout = opt.timeout;
	fd = openat(parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return errno == ENOENT ? 0 : errno;
	if (stat_fd(fd, &e->attr) == -1) {
		int err = errno;
		close(fd);
		return err;
	}
	in = inode_ref(fd, &e->attr, name);
	if (!in)
		return ENOMEM;
	e->ino = ino_of(in);
	return 0;
}

/* ---- requests ----------------------------------------------------------- */

static void reply_err(fuse_req_t req, int err)
{
	end();
	fuse_reply_err(req, err);
}

static void lat_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* Lookups in one directory must be able to overlap. */
	if (conn->capable & FUSE_CAP_PARALLEL_DIROPS)
		conn->want |= FUSE_CAP_PARALLEL_DIROPS;
	if (opt.readdirplus) {
		/* Always plus: the "auto" heuristic would hide what it costs. */
		conn->want |= FUSE_CAP_READDIRPLUS;
		conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
	} else {
		conn->want &= ~(FUSE_CAP_READDIRPLUS | FUSE_CAP_READDIRPLUS_AUTO);
	}
}

static void lat_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	int err;

	begin(OP_LOOKUP);
	err = inject(req, OP_LOOKUP, name);
	if (!err)
		err = do_lookup(inode_of(parent), name, &e);
	if (err)
		reply_err(req, err);
	else {
		end();
		fuse_reply_entry(req, &e);
	}
}

static void lat_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	count_only(OP_FORGET);
	inode_unref(inode_of(ino), nlookup);
	fuse_reply_none(req);
}

static void lat_forget_multi(fuse_req_t req, size_t n,
			     struct fuse_forget_data *f)
{
	count_only(OP_BATCH_FORGET);
	for (size_t i = 0; i < n; i++)
		inode_unref(inode_of(f[i].ino), f[i].nlookup);
	fuse_reply_none(req);
}

static void lat_getattr(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	struct stat st;
	int err;

	(void)fi;
	begin(OP_GETATTR);
	if ((err = inject(req, OP_GETATTR, inode_of(ino)->name)))
		return reply_err(req, err);
	if (stat_fd(inode_of(ino)->fd, &st) == -1)
		return reply_err(req, errno);
	end();
	fuse_reply_attr(req, &st, opt.timeout);
}

static void lat_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX + 1];
	ssize_t n;
	int err;

	begin(OP_READLINK);
	if ((err = inject(req, OP_READLINK, inode_of(ino)->name)))
		return reply_err(req, err);
	n = readlinkat(inode_of(ino)->fd, "", buf, sizeof buf);
	if (n == -1)
		return reply_err(req, errno);
	if (n == sizeof buf)
		return reply_err(req, ENAMETOOLONG);
	buf[n] = '\0';
	end();
	fuse_reply_readlink(req, buf);
}

/* An open directory: the stream, plus the entry that did not fit last time. */
struct dir {
	DIR *dp;
	struct dirent *pending;
	off_t offset;
};

static void lat_opendir(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	struct dir *d;
	int fd, err;

	begin(OP_OPENDIR);
	if ((err = inject(req, OP_OPENDIR, inode_of(ino)->name)))
		return reply_err(req, err);
	d = calloc(1, sizeof *d);
	if (!d)
		return reply_err(req, ENOMEM);
	fd = openat(inode_of(ino)->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1 || !(d->dp = fdopendir(fd))) {
		int err = errno;
		if (fd != -1)
			close(fd);
		free(d);
		return reply_err(req, err);
	}
	fi->fh = (uintptr_t)d;
	end();
	fuse_reply_open(req, fi);
}

/*
 * Append one entry to buf (rem bytes left); for readdirplus also look it
 * up. Returns the entry's size, or 0 if it did not fit (nothing taken).
 */
static size_t add_entry(fuse_req_t req, struct inode *dir, struct dirent *de,
			char *buf, size_t rem, int plus)
{
	size_t size;

	if (!plus) {
		struct stat st = { .st_ino = de->d_ino, .st_mode = DTTOIF(de->d_type) };
		size = fuse_add_direntry(req, buf, rem, de->d_name, &st, de->d_off);
		return size <= rem ? size : 0;
	}

	struct fuse_entry_param e = { .attr.st_ino = de->d_ino };
	int dot = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");

	/* "." and ".." are not looked up: the kernel ignores their attributes. */
	if (!dot && (do_lookup(dir, de->d_name, &e) != 0 || e.ino == 0))
		memset(&e, 0, sizeof e);
	size = fuse_add_direntry_plus(req, buf, rem, de->d_name, &e, de->d_off);
	if (size > rem) {
		if (e.ino)
			inode_unref(inode_of(e.ino), 1);	/* retried next call */
		return 0;
	}
	return size;
}

static void do_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t offset, struct fuse_file_info *fi, int plus)
{
	struct dir *d = (struct dir *)(uintptr_t)fi->fh;
	char *buf = malloc(size), *p = buf;
	size_t rem = size;

	if (!buf)
		return reply_err(req, ENOMEM);
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->pending = NULL;
		d->offset = offset;
	}
	for (;;) {
		size_t n;

		if (!d->pending) {
			errno = 0;
			d->pending = readdir(d->dp);
			if (!d->pending) {
				if (errno && p == buf) {
					free(buf);
					return reply_err(req, errno);
				}
				break;	/* end of directory (or error after data) */
			}
		}
		n = add_entry(req, inode_of(ino), d->pending, p, rem, plus);
		if (n == 0)
			break;	/* full: d->pending goes first next time */
		d->offset = d->pending->d_off;
		d->pending = NULL;
		p += n;
		rem -= n;
	}
	end();
	fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

static void lat_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			off_t offset, struct fuse_file_info *fi)
{
	int err;

	begin(OP_READDIR);
	if ((err = inject(req, OP_READDIR, inode_of(ino)->name)))
		return reply_err(req, err);
	do_readdir(req, ino, size, offset, fi, 0);
}

static void lat_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			    off_t offset, struct fuse_file_info *fi)
{
	int err;

	begin(OP_READDIRPLUS);
	if ((err = inject(req, OP_READDIRPLUS, inode_of(ino)->name)))
		return reply_err(req, err);
	do_readdir(req, ino, size, offset, fi, 1);
}

static void lat_releasedir(fuse_req_t req, fuse_ino_t ino,
			   struct fuse_file_info *fi)
{
	struct dir *d = (struct dir *)(uintptr_t)fi->fh;

	(void)ino;
	begin(OP_RELEASEDIR);
	closedir(d->dp);
	free(d);
	reply_err(req, 0);
}

static void lat_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	char path[64];
	int fd;

	begin(OP_OPEN);
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return reply_err(req, EROFS);
	proc_path(path, inode_of(ino)->fd);
	fd = open(path, (fi->flags & ~(O_NOFOLLOW | O_CREAT | O_TRUNC)) | O_CLOEXEC);
	if (fd == -1)
		return reply_err(req, errno);
	fi->fh = fd;
	end();
	fuse_reply_open(req, fi);
}

static void lat_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	char *buf = malloc(size ? size : 1);
	ssize_t n;

	(void)ino;
	begin(OP_READ);
	if (!buf)
		return reply_err(req, ENOMEM);
	if ((n = inject(req, OP_READ, inode_of(ino)->name))) {
		free(buf);
		return reply_err(req, (int)n);
	}
	n = pread(fi->fh, buf, size, off);
	if (n == -1) {
		free(buf);
		return reply_err(req, errno);
	}
	end();
	fuse_reply_buf(req, buf, n);
	free(buf);
}

static void lat_release(fuse_req_t req, fuse_ino_t ino,
			struct fuse_file_info *fi)
{
	(void)ino;
	begin(OP_RELEASE);
	close(fi->fh);
	reply_err(req, 0);
}

/*
 * The reply to getxattr/listxattr: the value (or the size it needs, when the
 * caller asked with size 0), or the error of the call that produced `n`.
 * Takes `buf`.
 */
static void reply_xattr(fuse_req_t req, char *buf, ssize_t n, size_t size)
{
	if (n == -1) {
		int err = errno;

		free(buf);
		return reply_err(req, err);
	}
	end();
	if (size)
		fuse_reply_buf(req, buf, n);
	else
		fuse_reply_xattr(req, n);
	free(buf);
}

/*
 * getxattr on "/proc/self/fd/N" reaches the object behind the O_PATH fd
 * itself (the magic link is not followed further, so a symlink answers for
 * itself) and returns whatever the source filesystem says: ENODATA on
 * ext4, ENOTSUP where xattrs are not supported.
 */
static void lat_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			 size_t size)
{
	char path[64], *buf = NULL;
	ssize_t n;
	int err;

	begin(OP_GETXATTR);
	if ((err = inject(req, OP_GETXATTR, inode_of(ino)->name)))
		return reply_err(req, err);
	proc_path(path, inode_of(ino)->fd);
	if (size && !(buf = malloc(size)))
		return reply_err(req, ENOMEM);
	n = getxattr(path, name, buf, size);
	reply_xattr(req, buf, n, size);
}

static void lat_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	char path[64], *buf = NULL;
	ssize_t n;

	begin(OP_LISTXATTR);
	proc_path(path, inode_of(ino)->fd);
	if (size && !(buf = malloc(size)))
		return reply_err(req, ENOMEM);
	n = listxattr(path, buf, size);
	reply_xattr(req, buf, n, size);
}

static void lat_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	begin(OP_STATFS);
	if (fstatvfs(inode_of(ino)->fd, &sv) == -1)
		return reply_err(req, errno);
	end();
	fuse_reply_statfs(req, &sv);
}

static void lat_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	char path[64];

	begin(OP_ACCESS);
	if ((mask & W_OK))
		return reply_err(req, EROFS);
	proc_path(path, inode_of(ino)->fd);
	reply_err(req, access(path, mask) == -1 ? errno : 0);
}

static const struct fuse_lowlevel_ops lat_ops = {
	.init = lat_init,
	.lookup = lat_lookup,
	.forget = lat_forget,
	.forget_multi = lat_forget_multi,
	.getattr = lat_getattr,
	.readlink = lat_readlink,
	.opendir = lat_opendir,
	.readdir = lat_readdir,
	.readdirplus = lat_readdirplus,
	.releasedir = lat_releasedir,
	.open = lat_open,
	.read = lat_read,
	.release = lat_release,
	.getxattr = lat_getxattr,
	.listxattr = lat_listxattr,
	.statfs = lat_statfs,
	.access = lat_access,
};

/* ---- main --------------------------------------------------------------- */

#define OPT(t, f, v) { t, offsetof(struct options, f), v }
static const struct fuse_opt lat_opts[] = {
	OPT("delay_us=%lu", delay_us, 0),
	OPT("timeout=%lf", timeout, 0),
	OPT("stats=%s", stats, 0),
	OPT("readdirplus", readdirplus, 1),
	OPT("fail_op=%s", fail_op, 0),
	OPT("fail_name=%s", fail_name, 0),
	OPT("fail_errno=%d", fail_errno, 0),
	OPT("fail_every=%lu", fail_every, 0),
	OPT("hang_op=%s", hang_op, 0),
	OPT("hang_name=%s", hang_name, 0),
	OPT("hang_ms=%lu", hang_ms, 0),
	OPT("hang_flag=%s", hang_flag, 0),
	OPT("hang_nth=%lu", hang_nth, 0),
	OPT("hang_intr", hang_intr, 1),
	FUSE_OPT_END
};

/* The first non-option argument is the source; the rest go to libfuse. */
static int opt_proc(void *data, const char *arg, int key,
		    struct fuse_args *args)
{
	(void)data;
	(void)args;
	if (key == FUSE_OPT_KEY_NONOPT && !opt.source) {
		opt.source = realpath(arg, NULL);
		if (!opt.source) {
			perror(arg);
			return -1;
		}
		return 0;
	}
	return 1;
}

static void usage(const char *prog)
{
	printf("usage: %s SOURCE MOUNTPOINT [options]\n"
	       "    -o delay_us=N   delay before each reply (default 1000)\n"
	       "    -o timeout=S    entry/attr timeout, seconds (default 0)\n"
	       "    -o readdirplus  enable READDIRPLUS\n"
	       "    -o stats=PATH   SIGUSR1 writes counters there, SIGUSR2 resets\n"
	       "    -o fail_op=OP,fail_errno=N,fail_name=GLOB,fail_every=N\n"
	       "                    fail OP (lookup getattr readlink getxattr\n"
	       "                    opendir readdir read) requests for matching names\n"
	       "    -o hang_op=OP,hang_name=GLOB,hang_ms=N[,hang_intr]\n"
	       "       [,hang_flag=PATH]  (hang only while PATH exists)\n"
	       "       [,hang_nth=N]      (hang only the N-th matching request)\n"
	       "                    delay them (hang_intr: EINTR on INTERRUPT)\n",
	       prog);
	fuse_cmdline_help();
	fuse_lowlevel_help();
}

/* Defaults for the injection options from LATFS_* variables. */
static void options_from_env(void)
{
	const char *v;

	opt.fail_op = getenv("LATFS_FAIL_OP");
	opt.fail_name = getenv("LATFS_FAIL_NAME");
	if ((v = getenv("LATFS_FAIL_ERRNO")))
		opt.fail_errno = atoi(v);
	if ((v = getenv("LATFS_FAIL_EVERY")))
		opt.fail_every = strtoul(v, NULL, 10);
	opt.hang_op = getenv("LATFS_HANG_OP");
	opt.hang_name = getenv("LATFS_HANG_NAME");
	opt.hang_flag = getenv("LATFS_HANG_FLAG");
	if ((v = getenv("LATFS_HANG_MS")))
		opt.hang_ms = strtoul(v, NULL, 10);
	if ((v = getenv("LATFS_HANG_INTR")))
		opt.hang_intr = atoi(v) != 0;
}

/* Open the source root and record its identity (see inode_ref). */
static int open_root(void)
{
	struct stat st;

	root.fd = open(opt.source, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root.fd == -1 || stat_fd(root.fd, &st) == -1) {
		perror(opt.source);
		return -1;
	}
	root.dev = st.st_dev;
	root.ino = st.st_ino;
	root.nlookup = 2;
	return 0;
}

/* Block the stats signals everywhere and hand them to signal_thread. */
static int start_signal_thread(void)
{
	static sigset_t set;
	pthread_t t;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0 ||
	    pthread_create(&t, NULL, signal_thread, &set) != 0)
		return -1;
	pthread_detach(t);
	return 0;
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_cmdline_opts cmd;
	struct fuse_loop_config *loop;
	struct fuse_session *se;
	int ret = 1;

	/* Enough workers for a client with many requests in flight; a later
	 * -o max_threads= on the command line overrides this. */
	if (fuse_opt_add_arg(&args, argv[0]) == -1 ||
	    fuse_opt_add_arg(&args, "-omax_threads=64") == -1)
		return 1;
	for (int i = 1; i < argc; i++)
		if (fuse_opt_add_arg(&args, argv[i]) == -1)
			return 1;
	options_from_env();
	if (fuse_opt_parse(&args, &opt, lat_opts, opt_proc) == -1 ||
	    fuse_parse_cmdline(&args, &cmd) != 0)
		return 1;
	if (cmd.show_help || !opt.source || !cmd.mountpoint) {
		usage(argv[0]);
		return cmd.show_help ? 0 : 1;
	}
	if (open_root() != 0 || start_signal_thread() != 0)
		return 1;

	se = fuse_session_new(&args, &lat_ops, sizeof lat_ops, NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_destroy;
	if (fuse_session_mount(se, cmd.mountpoint) != 0)
		goto out_signals;
	fuse_daemonize(cmd.foreground);

	loop = fuse_loop_cfg_create();
	fuse_loop_cfg_set_max_threads(loop, cmd.max_threads);
	fuse_loop_cfg_set_clone_fd(loop, cmd.clone_fd);
	ret = cmd.singlethread ? fuse_session_loop(se)
			       : fuse_session_loop_mt(se, loop);
	fuse_loop_cfg_destroy(loop);
	write_stats();	/* final counters, e.g. for a run ended by unmount */

	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_destroy:
	fuse_session_destroy(se);
	free(cmd.mountpoint);
	fuse_opt_free_args(&args);
	return ret ? 1 : 0;
}
