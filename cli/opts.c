/* opts.c: the option parser every subcommand uses (see cli.h).
 *
 * Conventions (those of rsvg-convert, resvg and getopt_long):
 *   --name VALUE and --name=VALUE; -x VALUE and -xVALUE for short names;
 *   flags take no value (--name=VALUE on a flag is an error);
 *   "--" ends the options: everything after it is an operand;
 *   "-" alone is an operand (standard input or output, as the command says);
 *   options and operands may come in any order.
 * --help prints the command's usage; --verbose (every command) turns on
 * source locations in error messages. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool cli_verbose = false;

static const cli_opt *find_long(const cli_opt *opts, const char *name, size_t len) {
  for (const cli_opt *o = opts; o && o->name; o++)
    if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o;
  return NULL;
}

static const cli_opt *find_short(const cli_opt *opts, char c) {
  for (const cli_opt *o = opts; o && o->name; o++)
    if (o->short_name && o->short_name == c) return o;
  return NULL;
}

/* Stores value into o's destination; false (after printing why) when it does not fit. */
static bool store(const char *cmd, const cli_opt *o, const char *shown, const char *value) {
  switch (o->kind) {
    case CLI_OPT_FLAG: *(bool *)o->dst = true; return true;
    case CLI_OPT_STRING: *(const char **)o->dst = value; return true;
    case CLI_OPT_FLOAT: {
      char *end;
      errno = 0;
      double v = strtod(value, &end);
      if (end == value || *end || errno || !isfinite(v) || v < o->lo || v > o->hi || (o->open_lo && v == o->lo)) {
        cli_usage_error(cmd, "%s: '%s' is not a number in %s%g, %g]", shown, value, o->open_lo ? "(" : "[", o->lo,
                        o->hi);
        return false;
      }
      *(float *)o->dst = (float)v;
      return true;
    }
    case CLI_OPT_INT: {
      char *end;
      errno = 0;
      long long v = strtoll(value, &end, 10);
      if (end == value || *end || errno || (double)v < o->lo || (double)v > o->hi) {
        cli_usage_error(cmd, "%s: '%s' is not a whole number in %.0f..%.0f", shown, value, o->lo, o->hi);
        return false;
      }
      *(int *)o->dst = (int)v;
      return true;
    }
    case CLI_OPT_STRINGS: {
      cli_strings *l = o->dst;
      if (l->n == CLI_MAX_REPEAT) {
        cli_usage_error(cmd, "%s: at most %d times", shown, CLI_MAX_REPEAT);
        return false;
      }
      l->v[l->n++] = value;
      return true;
    }
    case CLI_OPT_COLOR:
      if (!cn_svg_parse_color(value, (float *)o->dst)) {
        cli_usage_error(cmd, "%s: '%s' is not a colour (an SVG/CSS colour: white, #336699, rgba(0,0,0,0.5))",
                        shown, value);
        return false;
      }
      return true;
  }
  return false;
}

int cli_parse(const char *cmd, int argc, char **argv, const cli_opt *opts, void (*usage)(FILE *), int *nops) {
  int n = 0;
  bool only_operands = false;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    if (only_operands || a[0] != '-' || a[1] == 0) {
      argv[1 + n++] = a; /* operands move to the front, in order */
      continue;
    }
    if (strcmp(a, "--") == 0) {
      only_operands = true;
      continue;
    }
    const cli_opt *o;
    const char *value = NULL;
    char shown[64];
    if (a[1] == '-') {
      const char *name = a + 2, *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      if (!eq && strcmp(name, "help") == 0) {
        usage(stdout);
        return -1;
      }
      if (!eq && strcmp(name, "verbose") == 0 && !find_long(opts, name, len)) {
        cli_verbose = true;
        continue;
      }
      o = find_long(opts, name, len);
      snprintf(shown, sizeof shown, "--%.*s", (int)(len < 40 ? len : 40), name);
      if (!o) return cli_usage_error(cmd, "unknown option '%s'", shown);
      if (eq) {
        if (o->kind == CLI_OPT_FLAG) return cli_usage_error(cmd, "%s takes no value", shown);
        value = eq + 1;
      }
    } else {
      o = find_short(opts, a[1]);
      snprintf(shown, sizeof shown, "-%c", a[1]);
      if (!o && a[1] == '?' && a[2] == 0) {
        usage(stdout);
        return -1;
      }
      if (!o && a[1] == 'v' && a[2] == 0) {
        cli_verbose = true;
        continue;
      }
      if (!o) return cli_usage_error(cmd, "unknown option '%s'", a);
      if (a[2]) {
        if (o->kind == CLI_OPT_FLAG) return cli_usage_error(cmd, "unknown option '%s'", a);
        value = a + 2;
      }
    }
    if (o->kind != CLI_OPT_FLAG && !value) {
      if (i + 1 >= argc) return cli_usage_error(cmd, "%s needs %s", shown, o->metavar ? o->metavar : "a value");
      value = argv[++i];
    }
    if (!store(cmd, o, shown, value)) return CLI_USAGE;
    if (o->seen) *o->seen = true;
  }
  *nops = n;
  return CLI_OK;
}

int cli_parse_aa(const char *cmd, const char *name, uint32_t *aa) {
  if (!name || strcmp(name, "area") == 0) *aa = CN_AA_AREA;
  else if (strcmp(name, "ss16") == 0) *aa = CN_AA_SS16;
  else return cli_usage_error(cmd, "--aa: '%s' is neither area nor ss16", name);
  return CLI_OK;
}
