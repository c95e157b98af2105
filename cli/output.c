/* output.c: atomic output files, checked standard output, error messages and
 * progress lines (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_error(const char *cmd, const char *fmt, ...) {
  fprintf(stderr, "canopy %s: ", cmd);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return CLI_FAIL;
}

int cli_fail(const char *cmd, const char *what, cn_result r) {
  if (cli_verbose) {
    const char *msg = cn_last_error();
    fprintf(stderr, "canopy %s: %s: %s%s%s\n", cmd, what, cn_result_name(r), *msg ? ": " : "", msg);
  } else {
    const char *msg = cn_last_error_message();
    fprintf(stderr, "canopy %s: %s%s%s\n", cmd, what, *msg ? ": " : "", *msg ? msg : "");
  }
  return CLI_FAIL;
}

int cli_fail_file(const char *cmd, const char *file, cn_result r) {
  const char *msg = cli_verbose ? cn_last_error() : cn_last_error_message();
  fprintf(stderr, "canopy %s: ", cmd);
  if (!strstr(msg, file)) fprintf(stderr, "%s: ", file);
  if (cli_verbose) fprintf(stderr, "%s: ", cn_result_name(r));
  fprintf(stderr, "%s\n", *msg ? msg : "failed");
  return CLI_FAIL;
}

static bool progress_tty = false, progress_open = false;

void cli_progress(const char *cmd, int i, int n, const char *fmt, ...) {
  if (!progress_open) progress_tty = isatty(STDERR_FILENO) == 1;
  char text[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (progress_tty) {
    fprintf(stderr, "\r\033[Kcanopy %s: [%d/%d] %.100s", cmd, i, n, text);
    progress_open = true;
  } else {
    fprintf(stderr, "canopy %s: [%d/%d] %s\n", cmd, i, n, text);
  }
  fflush(stderr);
}

void cli_progress_end(void) {
  if (progress_open && progress_tty) fprintf(stderr, "\r\033[K");
  progress_open = false;
  fflush(stderr);
}

const char *cli_out_name(const char *path) {
  return !path || strcmp(path, "-") == 0 ? "standard output" : path;
}

int cli_out_open(const char *cmd, const char *path, cli_out *o) {
  memset(o, 0, sizeof *o);
  if (!path || strcmp(path, "-") == 0) {
    o->f = stdout;
    return CLI_OK;
  }
  o->path = path;
  /* The temporary file sits in the destination's directory, so that the
   * rename is atomic (same file system): DIR/.NAME.XXXXXX */
  const char *slash = strrchr(path, '/');
  int dirlen = slash ? (int)(slash - path + 1) : 0;
  int n = snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dirlen, path, slash ? slash + 1 : path);
  if (n < 0 || (size_t)n >= sizeof o->tmp) {
    o->tmp[0] = 0;
    return cli_error(cmd, "%s: the name is too long", path);
  }
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    o->tmp[0] = 0;
    return cli_error(cmd, "cannot write %s: %s", path, strerror(e));
  }
  /* mkstemp makes 0600; give the file the mode a plain create would (or the
   * mode of the file it replaces). */
  struct stat st;
  mode_t mode;
  if (stat(path, &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "wb"))) {
    int e = errno;
    close(fd);
    unlink(o->tmp);
    o->tmp[0] = 0;
    return cli_error(cmd, "cannot write %s: %s", path, strerror(e));
  }
  return CLI_OK;
}

void cli_out_abort(cli_out *o) {
  if (o->f && o->f != stdout) fclose(o->f);
  if (o->tmp[0]) unlink(o->tmp);
  o->f = NULL;
  o->tmp[0] = 0;
}

int cli_out_commit(const char *cmd, cli_out *o) {
  if (o->f == stdout) {
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    o->f = NULL;
    if (bad) return cli_error(cmd, "error writing standard output%s%s", e ? ": " : "", e ? strerror(e) : "");
    return CLI_OK;
  }
  errno = 0;
  bool bad = fflush(o->f) != 0 || ferror(o->f);
  bad = bad || fsync(fileno(o->f)) != 0;
  int e = errno;
  bad |= fclose(o->f) != 0;
  if (!e) e = errno;
  o->f = NULL;
  if (!bad && rename(o->tmp, o->path) != 0) {
    bad = true;
    e = errno;
  }
  if (bad) {
    unlink(o->tmp);
    o->tmp[0] = 0;
    return cli_error(cmd, "cannot write %s%s%s (left as it was)", o->path, e ? ": " : "", e ? strerror(e) : "");
  }
  o->tmp[0] = 0;
  return CLI_OK;
}

int cli_write_file(const char *cmd, const char *path, const void *data, size_t size) {
  cli_out o;
  int rc = cli_out_open(cmd, path, &o);
  if (rc != CLI_OK) return rc;
  if (size && fwrite(data, 1, size, o.f) != size) {
    int e = errno;
    cli_out_abort(&o);
    return cli_error(cmd, "cannot write %s: %s", cli_out_name(path), strerror(e));
  }
  return cli_out_commit(cmd, &o);
}
