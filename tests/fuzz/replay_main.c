/*
 * replay_main.c - run a libFuzzer target over files without libFuzzer.
 *
 * Each argument is a file or a directory of files; every file is passed to
 * LLVMFuzzerTestOneInput() once. This is how the fuzz corpora run as plain
 * tests under gcc and under the sanitizers.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!fp)
		return perror(path), 1;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", path);
		fclose(fp);
		free(buf);
		return 1;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

static int run_path(const char *path, int *count)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	int bad = 0;

	if (stat(path, &st))
		return perror(path), 1;
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	if (!(dir = opendir(path)))
		return perror(path), 1;
	while ((e = readdir(dir))) {
		char child[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		bad |= run_path(child, count);
	}
	closedir(dir);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, count = 0;

	for (int i = 1; i < argc; i++)
		bad |= run_path(argv[i], &count);
	printf("replayed %d inputs\n", count);
	return bad || count == 0;
}
