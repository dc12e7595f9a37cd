/*
 * test_atomic.c - lanes_atomic_open/commit/abort: an existing file is only
 * ever replaced whole, a link is written through, a device is written into.
 * (tests/cli/topo.sh covers the same through `lanes topo gen -o`, with a
 * write that really fails, FIFOs and device nodes.)
 */
#include "testutil.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

struct dir {
	char path[64];
};

static void make_dir(struct dir *d)
{
	snprintf(d->path, sizeof(d->path), "/tmp/lanes_atomic_XXXXXX");
	assert_non_null(mkdtemp(d->path));
}

static void remove_dir(struct dir *d)
{
	DIR *dp = opendir(d->path);
	struct dirent *e;
	char p[512];

	assert_non_null(dp);
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", d->path, e->d_name);
			unlink(p);
		}
	closedir(dp);
	rmdir(d->path);
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void assert_contents(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *fp = fopen(path, "r");
	size_t n;

	assert_non_null(fp);
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	assert_string_equal(buf, text);
}

/* Files in the directory (temporary files left behind would show here). */
static int count_files(const struct dir *d)
{
	DIR *dp = opendir(d->path);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

static void test_abort_keeps_the_old_file(void **state)
{
	struct lanes_atomic a;
	struct lanes_error err;
	struct dir d;
	char path[128];

	(void)state;
	make_dir(&d);
	snprintf(path, sizeof(path), "%s/f.txt", d.path);
	put(path, "old\n");
	chmod(path, 0600);
	assert_int_equal(lanes_atomic_open(&a, path, &err), 0);
	assert_non_null(a.tmp);
	fputs("half a new file", a.fp);
	fflush(a.fp);
	assert_int_equal(count_files(&d), 2);
	lanes_atomic_abort(&a);
	assert_contents(path, "old\n");
	assert_int_equal(count_files(&d), 1);
	/* commit replaces it whole, keeping its mode */
	assert_int_equal(lanes_atomic_open(&a, path, &err), 0);
	fputs("new\n", a.fp);
	assert_int_equal(lanes_atomic_commit(&a, &err), 0);
	assert_contents(path, "new\n");
	{
		struct stat st;

		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0600);
	}
	assert_int_equal(count_files(&d), 1);
	remove_dir(&d);
}

static void test_links_are_written_through(void **state)
{
	struct lanes_atomic a;
	struct lanes_error err;
	struct dir d;
	char real[128], link[128];

	(void)state;
	make_dir(&d);
	snprintf(real, sizeof(real), "%s/real.txt", d.path);
	snprintf(link, sizeof(link), "%s/link.txt", d.path);
	put(real, "old\n");
	assert_int_equal(symlink("real.txt", link), 0);
	assert_int_equal(lanes_atomic_open(&a, link, &err), 0);
	assert_string_equal(a.path, real);
	fputs("new\n", a.fp);
	assert_int_equal(lanes_atomic_commit(&a, &err), 0);
	{
		struct stat st;

		assert_int_equal(lstat(link, &st), 0);
		assert_true(S_ISLNK(st.st_mode));
	}
	assert_contents(real, "new\n");
	remove_dir(&d);
}

static void test_devices_are_written_directly(void **state)
{
	struct lanes_atomic a;
	struct lanes_error err;

	(void)state;
	assert_int_equal(lanes_atomic_open(&a, "/dev/null", &err), 0);
	if (a.tmp) { /* never leave a temporary file in /dev, even when failing */
		lanes_atomic_abort(&a);
		fail_msg("/dev/null is written through a temporary file");
	}
	fputs("gone\n", a.fp);
	assert_int_equal(lanes_atomic_commit(&a, &err), 0);
	{
		struct stat st;

		assert_int_equal(stat("/dev/null", &st), 0);
		assert_true(S_ISCHR(st.st_mode));
	}
	/* a full device fails at commit, with the reason */
	assert_int_equal(lanes_atomic_open(&a, "/dev/full", &err), 0);
	fputs("no room\n", a.fp);
	assert_int_equal(lanes_atomic_commit(&a, &err), LANES_EIO);
	assert_non_null(strstr(err.message, "write failed"));
	assert_non_null(strstr(err.message, "No space left"));
}

static void test_refusals(void **state)
{
	struct lanes_atomic a;
	struct lanes_error err;
	struct dir d;
	char p[128], q[128];

	(void)state;
	make_dir(&d);
	assert_int_equal(lanes_atomic_open(&a, d.path, &err), LANES_EIO);
	assert_non_null(strstr(err.message, "Is a directory"));
	snprintf(p, sizeof(p), "%s/a", d.path);
	snprintf(q, sizeof(q), "%s/b", d.path);
	assert_int_equal(symlink("b", p), 0);
	assert_int_equal(symlink("a", q), 0);
	assert_int_equal(lanes_atomic_open(&a, p, &err), LANES_EIO);
	assert_non_null(strstr(err.message, "symbolic links"));
	snprintf(p, sizeof(p), "%s/nodir/x", d.path);
	assert_int_equal(lanes_atomic_open(&a, p, &err), LANES_EIO);
	assert_non_null(strstr(err.message, "temporary file"));
	assert_int_equal(count_files(&d), 2);
	remove_dir(&d);
}

/* A new file's mode under umask mask: 0666 & ~mask, as open(O_CREAT, 0666) gives. */
static void assert_new_file_mode(const struct dir *d, mode_t mask)
{
	struct lanes_atomic a;
	struct lanes_error err;
	struct stat st;
	char path[128];
	mode_t old = umask(mask);

	snprintf(path, sizeof(path), "%s/new-%03o.txt", d->path, (unsigned)mask);
	assert_int_equal(lanes_atomic_open(&a, path, &err), 0);
	fputs("new\n", a.fp);
	assert_int_equal(lanes_atomic_commit(&a, &err), 0);
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0666 & ~mask);
	unlink(path);
}

static void test_new_files_follow_the_umask(void **state)
{
	struct dir d;

	(void)state;
	make_dir(&d);
	assert_new_file_mode(&d, 077);
	assert_new_file_mode(&d, 022);
	assert_new_file_mode(&d, 002);
	assert_new_file_mode(&d, 0);
	assert_int_equal(count_files(&d), 0);
	remove_dir(&d);
}

/* An empty name, and .xz, .bz2, .lz4 (compressions lanes does not write), create nothing. */
static void test_names_refused(void **state)
{
	static const char *const endings[][2] = {
		{ "xz", "xz" }, { "bz2", "bzip2" }, { "lz4", "lz4" },
	};
	struct lanes_atomic a;
	struct lanes_error err;
	struct dir d;
	char p[128], want[64];

	(void)state;
	make_dir(&d);
	assert_int_equal(lanes_atomic_open(&a, "", &err), LANES_EINVAL);
	assert_non_null(strstr(err.message, "empty file name"));
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/f.net.%s", d.path, endings[i][0]);
		assert_int_equal(lanes_atomic_open(&a, p, &err), LANES_EINVAL);
		snprintf(want, sizeof(want), "does not write %s;", endings[i][1]);
		assert_non_null(strstr(err.message, want));
		assert_non_null(strstr(err.message, "gzip (.gz) and zstd (.zst)"));
		assert_non_null(strstr(err.message, p));
	}
	assert_int_equal(count_files(&d), 0);
	remove_dir(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abort_keeps_the_old_file),
		cmocka_unit_test(test_links_are_written_through),
		cmocka_unit_test(test_devices_are_written_directly),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_new_files_follow_the_umask),
		cmocka_unit_test(test_names_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
