/* cmd_bbox_svg.c: `canopy bbox FILE.svg`: the whole scene stage on an SVG. */
#include "cli.h"

#include <stdio.h>

int cli_bbox_svg(const char *svg, const char *out_path, bool cpu) {
  (void)out_path;
  (void)cpu;
  fprintf(stderr, "canopy bbox: %s: SVG loading (issue 4) is not merged into this build yet\n", svg);
  return CLI_FAIL;
}
