/* svg_font.c: the font database of one load.
 *
 * With font directories in the options, a private fontconfig configuration
 * holds only their fonts (FcConfigAppFontAddDir; no system fonts, no user
 * configuration) and the generic families map to the option's names; without
 * them, the system configuration is used and fontconfig itself says which
 * family a generic name means. Either way the faces are enumerated once and
 * matched here with the CSS font matching rules (family by name, then
 * stretch, style, weight), so that both cases choose alike. Faces are opened
 * with FreeType on first use (a file that fails to open is reported and
 * skipped), shaped with HarfBuzz through hb-ft's face and outlined unscaled,
 * in font units, with FreeType. */
#include "svg_text.h"

#include <fontconfig/fontconfig.h>
#include <hb-ft.h>
#include FT_MULTIPLE_MASTERS_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include FT_COLOR_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct font_entry {
  char *file;
  int index;
  char **families;
  uint32_t nfam;
  int weight;  /* CSS 1..1000 */
  int style;   /* 0 normal, 1 italic, 2 oblique */
  int width;   /* percent, 100 normal */
  FcCharSet *charset;
  bool broken; /* failed to open: never chosen again */
  bool opsz;   /* a variable font with an optical size axis */
} font_entry;

struct svg_fontdb {
  FcConfig *cfg;
  FT_Library ft;
  font_entry *e;
  uint32_t n;
  svg_font *inst[SVG_MAX_FONT_INSTANCES];
  uint32_t ninst;
  bool custom;
  char generic[5][128];
  bool limit_warned;
};

static const char *const generic_names[5] = {"sans-serif", "serif", "monospace", "cursive", "fantasy"};

void cn__svg_fontdb_destroy(svg_fontdb *db) {
  if (!db) return;
  for (uint32_t i = 0; i < db->ninst; i++) {
    hb_font_destroy(db->inst[i]->hb);
    FT_Done_Face(db->inst[i]->face);
    free(db->inst[i]);
  }
  for (uint32_t i = 0; i < db->n; i++) {
    free(db->e[i].file);
    for (uint32_t k = 0; k < db->e[i].nfam; k++) free(db->e[i].families[k]);
    free(db->e[i].families);
    if (db->e[i].charset) FcCharSetDestroy(db->e[i].charset);
  }
  free(db->e);
  if (db->ft) FT_Done_FreeType(db->ft);
  if (db->cfg) FcConfigDestroy(db->cfg);
  free(db);
}

static char *dup_str(const char *s) {
  size_t n = strlen(s);
  char *d = malloc(n + 1);
  if (d) memcpy(d, s, n + 1);
  return d;
}

static int entry_cmp(const void *a, const void *b) {
  const font_entry *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  return c ? c : x->index - y->index;
}

/* Adds the faces of one fontconfig set (named instances of variable fonts
 * are left out: variations are applied to the base face). */
static cn_result add_set(svg_fontdb *db, FcFontSet *set) {
  if (!set) return CN_OK;
  for (int i = 0; i < set->nfont; i++) {
    FcPattern *p = set->fonts[i];
    FcChar8 *file = NULL;
    int index = 0;
    if (FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch) continue;
    FcPatternGetInteger(p, FC_INDEX, 0, &index);
    if (index >> 16) continue;
    /* a variable font comes as its default instance and as the variable
     * pattern (same file and index): one entry, with an optical size axis
     * when the variable pattern has a size range */
    FcBool variable = FcFalse;
    FcRange *size_range;
    bool opsz = FcPatternGetBool(p, FC_VARIABLE, 0, &variable) == FcResultMatch && variable &&
                FcPatternGetRange(p, FC_SIZE, 0, &size_range) == FcResultMatch;
    bool dup = false;
    for (uint32_t k = 0; k < db->n && !dup; k++)
      if (db->e[k].index == index && strcmp(db->e[k].file, (const char *)file) == 0) dup = true, db->e[k].opsz |= opsz;
    if (dup) continue;
    font_entry *ne = realloc(db->e, (db->n + 1) * sizeof *ne);
    if (!ne) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the font list");
    db->e = ne;
    font_entry *e = &db->e[db->n];
    *e = (font_entry){.index = index, .weight = 400, .width = 100};
    e->file = dup_str((const char *)file);
    if (!e->file) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the font list");
    db->n++;
    FcChar8 *fam;
    for (int k = 0; FcPatternGetString(p, FC_FAMILY, k, &fam) == FcResultMatch; k++) {
      char **nf = realloc(e->families, (e->nfam + 1) * sizeof *nf);
      if (!nf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the font list");
      e->families = nf;
      if (!(e->families[e->nfam] = dup_str((const char *)fam)))
        return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the font list");
      e->nfam++;
    }
    double w;
    FcRange *range;
    if (FcPatternGetDouble(p, FC_WEIGHT, 0, &w) == FcResultMatch) {
      e->weight = (int)lround(FcWeightToOpenTypeDouble(w));
    } else if (FcPatternGetRange(p, FC_WEIGHT, 0, &range) == FcResultMatch) {
      double b0, b1;
      FcRangeGetDouble(range, &b0, &b1);
      b0 = FcWeightToOpenTypeDouble(b0), b1 = FcWeightToOpenTypeDouble(b1);
      e->weight = 400 < b0 ? (int)b0 : 400 > b1 ? (int)b1 : 400;
    }
    int slant = 0;
    if (FcPatternGetInteger(p, FC_SLANT, 0, &slant) == FcResultMatch)
      e->style = slant >= FC_SLANT_OBLIQUE ? 2 : slant >= FC_SLANT_ITALIC ? 1 : 0;
    if (FcPatternGetDouble(p, FC_WIDTH, 0, &w) == FcResultMatch) e->width = (int)lround(w);
    else {
      int wi;
      if (FcPatternGetInteger(p, FC_WIDTH, 0, &wi) == FcResultMatch) e->width = wi;
    }
    FcCharSet *cs;
    if (FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) == FcResultMatch) e->charset = FcCharSetCopy(cs);
    e->opsz = opsz;
  }
  return CN_OK;
}

static bool font_file_name(const char *name) {
  static const char *const ext[] = {".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".pfb", ".pfa"};
  size_t n = strlen(name);
  for (size_t i = 0; i < CN_ARRAY_LEN(ext); i++) {
    size_t k = strlen(ext[i]);
    if (n > k && strcasecmp(name + n - k, ext[i]) == 0) return true;
  }
  return false;
}

/* Adds the fonts of dir and its subdirectories (up to 8 deep, 100000 files)
 * to cfg, file by file: fontconfig writes no cache, and a file that is not a
 * font is reported. */
static cn_result add_dir(svg_loader *L, FcConfig *cfg, const char *dir, int depth, uint32_t *files) {
  DIR *d = opendir(dir);
  if (!d) return depth ? CN_OK : cn_fail(CN_ERROR_IO, "font directory %s cannot be read", dir);
  cn_result r = CN_OK;
  struct dirent *de;
  char path[4096];
  while (r == CN_OK && (de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.') continue;
    if (++*files > 100000) break;
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    struct stat sb;
    if (stat(path, &sb) != 0) continue;
    if (S_ISDIR(sb.st_mode)) {
      if (depth < 8) r = add_dir(L, cfg, path, depth + 1, files);
      continue;
    }
    if (!S_ISREG(sb.st_mode) || !font_file_name(de->d_name)) continue;
    FcFontSet *set = FcConfigGetFonts(cfg, FcSetApplication);
    int before = set ? set->nfont : 0;
    FcConfigAppFontAddFile(cfg, (const FcChar8 *)path);
    set = FcConfigGetFonts(cfg, FcSetApplication);
    if ((set ? set->nfont : 0) == before)
      r = cn__svg_warn(L, CN_SVG_SKIP_FONT, NULL, "font file %.120s cannot be read as a font; skipped", path);
  }
  closedir(d);
  return r;
}

static cn_result fontdb_create(svg_loader *L, svg_fontdb **out) {
  *out = NULL;
  svg_fontdb *db = calloc(1, sizeof *db);
  if (!db) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the font database");
  cn_result r = CN_OK;
  if (FT_Init_FreeType(&db->ft)) {
    db->ft = NULL;
    r = cn_fail(CN_ERROR_STATE, "FreeType cannot be initialised");
    goto fail;
  }
  db->custom = L->opt.font_dir_count > 0;
  if (db->custom) {
    static const char *const defaults[5] = CN_SVG_DEFAULT_GENERIC_FAMILIES;
    for (int k = 0; k < 5; k++)
      snprintf(db->generic[k], sizeof db->generic[k], "%s",
               L->opt.generic_families[k] ? L->opt.generic_families[k] : defaults[k]);
    if (!L->opt.font_dirs) {
      r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "options: font_dir_count is %u but font_dirs is NULL", L->opt.font_dir_count);
      goto fail;
    }
    db->cfg = FcConfigCreate();
    if (!db->cfg) {
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a fontconfig configuration");
      goto fail;
    }
    uint32_t files = 0;
    for (uint32_t i = 0; i < L->opt.font_dir_count && r == CN_OK; i++) {
      const char *d = L->opt.font_dirs[i];
      r = d ? add_dir(L, db->cfg, d, 0, &files) : cn_fail(CN_ERROR_INVALID_ARGUMENT, "options: font_dirs[%u] is NULL", i);
    }
    if (r != CN_OK) goto fail;
    r = add_set(db, FcConfigGetFonts(db->cfg, FcSetApplication));
  } else {
    db->cfg = FcInitLoadConfigAndFonts();
    if (!db->cfg) {
      r = cn_fail(CN_ERROR_STATE, "the system's fontconfig configuration cannot be loaded");
      goto fail;
    }
    r = add_set(db, FcConfigGetFonts(db->cfg, FcSetSystem));
    if (r == CN_OK) r = add_set(db, FcConfigGetFonts(db->cfg, FcSetApplication));
    /* generic families: what fontconfig's rules make of them */
    for (int k = 0; k < 5 && r == CN_OK; k++) {
      FcPattern *pat = FcNameParse((const FcChar8 *)generic_names[k]);
      if (!pat) continue;
      FcConfigSubstitute(db->cfg, pat, FcMatchPattern);
      FcDefaultSubstitute(pat);
      FcResult res;
      FcPattern *m = FcFontMatch(db->cfg, pat, &res);
      FcChar8 *fam;
      if (m && FcPatternGetString(m, FC_FAMILY, 0, &fam) == FcResultMatch)
        snprintf(db->generic[k], sizeof db->generic[k], "%s", (const char *)fam);
      if (m) FcPatternDestroy(m);
      FcPatternDestroy(pat);
    }
  }
  if (r != CN_OK) goto fail;
  if (db->n) qsort(db->e, db->n, sizeof *db->e, entry_cmp);
  *out = db;
  return CN_OK;
fail:
  cn__svg_fontdb_destroy(db);
  return r;
}

cn_result cn__svg_fontdb_get(svg_loader *L, svg_fontdb **out) {
  if (!L->fonts) CN_TRY(fontdb_create(L, &L->fonts));
  *out = L->fonts;
  return CN_OK;
}

const char *cn__svg_font_family(svg_loader *L, const svg_font *f) {
  if (!L->fonts || f->entry >= L->fonts->n || !L->fonts->e[f->entry].nfam) return "?";
  return L->fonts->e[f->entry].families[0];
}

/* ------------------------------------------------------------ matching */

static bool has_family(const font_entry *e, const char *name, size_t n) {
  for (uint32_t k = 0; k < e->nfam; k++)
    if (strlen(e->families[k]) == n && strncasecmp(e->families[k], name, n) == 0) return true;
  return false;
}

static const int stretch_pct[10] = {100, 50, 62, 75, 87, 100, 112, 125, 150, 200};

/* CSS Fonts 3 font matching among cand[0..n): stretch, then style, then weight. */
static int css_match(const svg_fontdb *db, const uint32_t *cand, uint32_t n, const svg_font_query *q) {
  if (!n) return -1;
  int want = stretch_pct[q->stretch < 10 ? q->stretch : 5];
  /* stretch: the exact one, else narrower first when want <= 100, else wider first */
  int best_w = -1;
  for (uint32_t i = 0; i < n; i++) {
    int w = db->e[cand[i]].width;
    if (best_w < 0) { best_w = w; continue; }
    bool better;
    if (w == want) better = best_w != want;
    else if (best_w == want) better = false;
    else if (want <= 100) {
      bool wn = w < want, bn = best_w < want;
      better = wn != bn ? wn : (wn ? w > best_w : w < best_w);
    } else {
      bool ww = w > want, bw = best_w > want;
      better = ww != bw ? ww : (ww ? w < best_w : w > best_w);
    }
    if (better) best_w = w;
  }
  /* style: italic > oblique > normal for italic, oblique > italic > normal for oblique, normal > oblique > italic */
  static const int order[3][3] = {{0, 2, 1}, {1, 2, 0}, {2, 1, 0}};
  int best_s = -1;
  for (int k = 0; k < 3 && best_s < 0; k++)
    for (uint32_t i = 0; i < n; i++)
      if (db->e[cand[i]].width == best_w && db->e[cand[i]].style == order[q->style < 3 ? q->style : 0][k]) best_s = order[q->style < 3 ? q->style : 0][k];
  /* weight */
  int want_wt = q->weight, pick = -1, pick_wt = 0;
  for (uint32_t i = 0; i < n; i++) {
    const font_entry *e = &db->e[cand[i]];
    if (e->width != best_w || e->style != best_s) continue;
    int w = e->weight;
    if (pick < 0) { pick = (int)cand[i], pick_wt = w; continue; }
    /* rank: lower is better */
    long rw, rp;
#define RANK(x, out)                                                                           \
  do {                                                                                        \
    if (x == want_wt) out = 0;                                                                \
    else if (want_wt >= 400 && want_wt <= 500) {                                             \
      if (x > want_wt && x <= 500) out = 1 + (x - want_wt);                                   \
      else if (x < want_wt) out = 2000 + (want_wt - x);                                        \
      else out = 4000 + (x - want_wt);                                                         \
    } else if (want_wt < 400) out = x < want_wt ? 1 + (want_wt - x) : 2000 + (x - want_wt);   \
    else out = x > want_wt ? 1 + (x - want_wt) : 2000 + (want_wt - x);                        \
  } while (0)
    RANK(w, rw);
    RANK(pick_wt, rp);
#undef RANK
    if (rw < rp) pick = (int)cand[i], pick_wt = w;
  }
  return pick;
}

/* Next family name of a CSS font-family list at *s (unquoted, trimmed) into
 * name; false at the end. */
static bool next_family(const char **s, const char *end, char *name, size_t cap) {
  const char *p = *s;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',')) p++;
  if (p >= end) return false;
  size_t n = 0;
  if (*p == '"' || *p == '\'') {
    char qc = *p++;
    while (p < end && *p != qc) {
      if (n + 1 < cap) name[n++] = *p;
      p++;
    }
    if (p < end) p++;
    while (p < end && *p != ',') p++;
  } else {
    const char *st = p;
    while (p < end && *p != ',') p++;
    const char *e = p;
    while (e > st && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n')) e--;
    /* collapse inner whitespace runs to one space */
    for (const char *c = st; c < e; c++) {
      if ((*c == ' ' || *c == '\t' || *c == '\n') && n && name[n - 1] == ' ') continue;
      if (n + 1 < cap) name[n++] = (*c == '\t' || *c == '\n') ? ' ' : *c;
    }
  }
  name[n] = 0;
  *s = p;
  return true;
}

static const char *map_generic(svg_fontdb *db, const char *name) {
  for (int k = 0; k < 5; k++)
    if (strcasecmp(name, generic_names[k]) == 0) return db->generic[k][0] ? db->generic[k] : NULL;
  return name;
}

static svg_font *find_instance(svg_fontdb *db, uint32_t entry, const svg_variation *var, uint32_t nvar) {
  for (uint32_t i = 0; i < db->ninst; i++) {
    svg_font *f = db->inst[i];
    if (f->entry == entry && f->nvar == nvar && (!nvar || memcmp(f->var, var, nvar * sizeof *var) == 0)) return f;
  }
  return NULL;
}

static double fixed_to(FT_Fixed v) { return (double)v / 65536.0; }

/* Opens entry with variations; NULL with *why set when it fails. */
static svg_font *open_instance(svg_fontdb *db, uint32_t entry, const svg_variation *var, uint32_t nvar, char *why,
                               size_t whylen) {
  font_entry *e = &db->e[entry];
  FT_Face face;
  FT_Error err = FT_New_Face(db->ft, e->file, e->index, &face);
  if (err) {
    snprintf(why, whylen, "FreeType error %d", (int)err);
    return NULL;
  }
  if (!(face->face_flags & FT_FACE_FLAG_SCALABLE) || face->units_per_EM < 16 || face->units_per_EM > 16384) {
    snprintf(why, whylen, "not a scalable font with 16..16384 units per em");
    FT_Done_Face(face);
    return NULL;
  }
  svg_font *f = calloc(1, sizeof *f);
  if (!f) {
    FT_Done_Face(face);
    snprintf(why, whylen, "no memory");
    return NULL;
  }
  f->face = face;
  f->entry = entry;
  f->upem = face->units_per_EM;
  f->nvar = nvar;
  if (nvar) memcpy(f->var, var, nvar * sizeof *var);
  /* variations: FreeType's design coordinates for the outlines, HarfBuzz's for shaping */
  FT_MM_Var *mm = NULL;
  if ((face->face_flags & FT_FACE_FLAG_MULTIPLE_MASTERS) && nvar && FT_Get_MM_Var(face, &mm) == 0) {
    FT_Fixed coords[64];
    FT_UInt na = mm->num_axis < 64 ? mm->num_axis : 64;
    for (FT_UInt a = 0; a < na; a++) {
      coords[a] = mm->axis[a].def;
      for (uint32_t k = 0; k < nvar; k++)
        if (mm->axis[a].tag == var[k].tag) {
          double v = var[k].value, lo = fixed_to(mm->axis[a].minimum), hi = fixed_to(mm->axis[a].maximum);
          v = v < lo ? lo : v > hi ? hi : v;
          coords[a] = (FT_Fixed)lround(v * 65536.0);
        }
    }
    FT_Set_Var_Design_Coordinates(face, na, coords);
    FT_Done_MM_Var(db->ft, mm);
  }
  hb_face_t *hf = hb_ft_face_create_referenced(face);
  f->hb = hb_font_create(hf);
  hb_face_destroy(hf);
  hb_font_set_scale(f->hb, f->upem, f->upem);
  if (nvar) {
    hb_variation_t hv[SVG_MAX_VARIATIONS];
    for (uint32_t k = 0; k < nvar; k++) hv[k].tag = var[k].tag, hv[k].value = var[k].value;
    hb_font_set_variations(f->hb, hv, nvar);
  }
  /* metrics in font units, as the font's tables give them */
  f->ascent = face->ascender;
  f->descent = face->descender;
  TT_OS2 *os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
  TT_Postscript *post = FT_Get_Sfnt_Table(face, FT_SFNT_POST);
  f->x_height = os2 && os2->version >= 2 && os2->sxHeight > 0 ? os2->sxHeight : round((f->ascent - f->descent) * 0.45);
  f->strike_pos = os2 ? os2->yStrikeoutPosition : round(f->x_height / 2);
  if (post && post->underlineThickness > 0) {
    f->underline_pos = post->underlinePosition;
    f->underline_thick = post->underlineThickness;
  } else {
    f->underline_pos = post ? post->underlinePosition : -(f->upem / 9);
    f->underline_thick = f->upem / 12;
  }
  f->sub_off = os2 ? os2->ySubscriptYOffset : round(f->upem / 0.2);
  f->super_off = os2 ? os2->ySuperscriptYOffset : round(f->upem / 0.4);
  FT_Palette_Data pd;
  f->colr = FT_Palette_Data_Get(face, &pd) == 0 && pd.num_palettes > 0;
  return f;
}

/* The instance of entry with q's variations (opened, or from the cache);
 * NULL when the file fails to open (reported; the entry is never tried again). */
static cn_result get_instance(svg_loader *L, const xmlNode *node, svg_fontdb *db, uint32_t entry,
                              const svg_variation *var_in, uint32_t nvar, float size, svg_font **out) {
  /* font-optical-sizing auto (as browsers and resvg): opsz follows the size unless set */
  svg_variation var[SVG_MAX_VARIATIONS];
  memcpy(var, var_in, nvar * sizeof *var);
  const uint32_t opsz = HB_TAG('o', 'p', 's', 'z');
  bool has = false;
  for (uint32_t k = 0; k < nvar; k++) has |= var[k].tag == opsz;
  if (db->e[entry].opsz && !has && nvar < SVG_MAX_VARIATIONS && size > 0) var[nvar++] = (svg_variation){opsz, size};
  *out = find_instance(db, entry, var, nvar);
  if (*out) return CN_OK;
  if (db->ninst == SVG_MAX_FONT_INSTANCES) {
    /* bounded: reuse the entry's first instance, whatever its variations */
    for (uint32_t i = 0; i < db->ninst; i++)
      if (db->inst[i]->entry == entry) {
        *out = db->inst[i];
        break;
      }
    if (!db->limit_warned) {
      db->limit_warned = true;
      CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_FONT, node, "more than %d font instances (variation settings); later ones reuse earlier ones",
                          SVG_MAX_FONT_INSTANCES));
    }
    if (!*out) *out = db->inst[0];
    return CN_OK;
  }
  char why[128] = "";
  svg_font *f = open_instance(db, entry, var, nvar, why, sizeof why);
  if (!f) {
    db->e[entry].broken = true;
    return cn__svg_warn(L, CN_SVG_SKIP_FONT, node, "font file %.100s cannot be used (%s); another font is used",
                        db->e[entry].file, why);
  }
  db->inst[db->ninst++] = f;
  *out = f;
  return CN_OK;
}

/* The font of family name for q, or NULL. */
static cn_result select_family(svg_loader *L, const xmlNode *node, svg_fontdb *db, const char *name,
                               const svg_font_query *q, svg_font **out) {
  *out = NULL;
  uint32_t *cand = malloc((db->n ? db->n : 1) * sizeof *cand);
  if (!cand) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for font matching");
  for (;;) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < db->n; i++)
      if (!db->e[i].broken && has_family(&db->e[i], name, strlen(name))) cand[n++] = i;
    int pick = css_match(db, cand, n, q);
    if (pick < 0) break;
    cn_result r = get_instance(L, node, db, (uint32_t)pick, q->var, q->nvar, q->size, out);
    if (r != CN_OK || *out) {
      free(cand);
      return r;
    }
  }
  free(cand);
  return CN_OK;
}

cn_result cn__svg_font_select(svg_loader *L, const xmlNode *node, const svg_font_query *q, svg_font **out) {
  *out = NULL;
  svg_fontdb *db;
  CN_TRY(cn__svg_fontdb_get(L, &db));
  char name[256], first[256] = "";
  bool any = false;
  if (q->families) {
    const char *s = q->families, *end = q->families + q->families_len;
    while (next_family(&s, end, name, sizeof name)) {
      if (!name[0]) continue;
      if (!any) snprintf(first, sizeof first, "%s", name);
      any = true;
      const char *fam = map_generic(db, name);
      if (!fam) continue;
      CN_TRY(select_family(L, node, db, fam, q, out));
      if (*out) return CN_OK;
    }
  }
  if (!any) { /* no font-family: the default, the sans-serif family */
    CN_TRY(select_family(L, node, db, db->generic[0], q, out));
    if (*out) return CN_OK;
  }
  /* the last resort, as resvg's font selection has it: the serif family, then any font */
  CN_TRY(select_family(L, node, db, db->generic[1], q, out));
  if (!*out)
    for (uint32_t i = 0; i < db->n && !*out; i++)
      if (!db->e[i].broken) CN_TRY(get_instance(L, node, db, i, q->var, q->nvar, q->size, out));
  if (!*out) return cn__svg_warn(L, CN_SVG_SKIP_FONT, node, "no usable font for <%s>; its text is not drawn",
                                 (const char *)node->name);
  return cn__svg_warn(L, CN_SVG_SKIP_FONT, node, "font family '%.80s' not found; %.80s used", any ? first : db->generic[0],
                      cn__svg_font_family(L, *out));
}

cn_result cn__svg_font_fallback(svg_loader *L, const xmlNode *node, uint32_t cp, const svg_font *base,
                                svg_font *const *used, uint32_t nused, svg_font **out) {
  *out = NULL;
  svg_fontdb *db = L->fonts;
  if (!db) return CN_OK;
  const font_entry *b = &db->e[base->entry];
  for (uint32_t i = 0; i < db->n; i++) {
    const font_entry *e = &db->e[i];
    if (e->broken || !e->charset) continue;
    bool skip = false;
    for (uint32_t k = 0; k < nused && !skip; k++) skip = used[k]->entry == i;
    if (skip) continue;
    /* resvg's rule: a face of a wholly different style is not a fallback */
    if (e->style != b->style && e->weight != b->weight && e->width != b->width) continue;
    if (!FcCharSetHasChar(e->charset, cp)) continue;
    CN_TRY(get_instance(L, node, db, i, base->var, base->nvar, 0, out));
    if (*out) return CN_OK;
  }
  return CN_OK;
}

/* ------------------------------------------------------------ outlines */

typedef struct outline_ctx {
  svg_path *p;
  svg_mat m;
  bool open;
} outline_ctx;

static void map_pt(const outline_ctx *c, const FT_Vector *v, double *x, double *y) {
  cn__svg_mat_apply(c->m, (double)v->x, (double)v->y, x, y);
}

static int o_move(const FT_Vector *to, void *user) {
  outline_ctx *c = user;
  double x, y;
  if (c->open) cn__svg_path_close(c->p);
  map_pt(c, to, &x, &y);
  cn__svg_path_move(c->p, x, y);
  c->open = true;
  return 0;
}
static int o_line(const FT_Vector *to, void *user) {
  outline_ctx *c = user;
  double x, y;
  map_pt(c, to, &x, &y);
  cn__svg_path_line(c->p, x, y);
  return 0;
}
static int o_conic(const FT_Vector *ctl, const FT_Vector *to, void *user) {
  outline_ctx *c = user;
  double x1, y1, x, y;
  map_pt(c, ctl, &x1, &y1);
  map_pt(c, to, &x, &y);
  cn__svg_path_quad(c->p, x1, y1, x, y);
  return 0;
}
static int o_cubic(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *user) {
  outline_ctx *c = user;
  double x1, y1, x2, y2, x, y;
  map_pt(c, c1, &x1, &y1);
  map_pt(c, c2, &x2, &y2);
  map_pt(c, to, &x, &y);
  cn__svg_path_cubic(c->p, x1, y1, x2, y2, x, y);
  return 0;
}

bool cn__svg_font_outline(svg_font *f, uint32_t gid, svg_mat m, svg_path *p) {
  if (FT_Load_Glyph(f->face, gid, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_IGNORE_TRANSFORM))
    return false;
  FT_GlyphSlot g = f->face->glyph;
  if (g->format != FT_GLYPH_FORMAT_OUTLINE) return false;
  static const FT_Outline_Funcs funcs = {o_move, o_line, o_conic, o_cubic, 0, 0};
  outline_ctx c = {p, m, false};
  if (FT_Outline_Decompose(&g->outline, &funcs, &c)) return false;
  if (c.open) cn__svg_path_close(p);
  return true;
}

uint32_t cn__svg_font_color_layers(svg_font *f, uint32_t gid, svg_color_layer *layers, uint32_t cap) {
  if (!f->colr) return 0;
  FT_Color *pal = NULL;
  FT_Palette_Data pd;
  if (FT_Palette_Data_Get(f->face, &pd) || FT_Palette_Select(f->face, 0, &pal)) pal = NULL;
  FT_LayerIterator it = {0};
  FT_UInt lg, ci;
  uint32_t n = 0;
  while (n < cap && FT_Get_Color_Glyph_Layer(f->face, gid, &lg, &ci, &it)) {
    svg_color_layer *l = &layers[n++];
    l->gid = lg;
    l->current = ci == 0xFFFF || !pal || ci >= pd.num_palette_entries;
    if (!l->current)
      l->color = (svg_color){pal[ci].red / 255.0f, pal[ci].green / 255.0f, pal[ci].blue / 255.0f, pal[ci].alpha / 255.0f};
  }
  return n;
}

bool cn__svg_font_color_unsupported(svg_font *f, uint32_t gid) {
  if (FT_HAS_SVG(f->face)) return true; /* SVG-in-OpenType: only the outlines are drawn */
  if (!f->colr) return false;
  FT_OpaquePaint paint = {NULL, 1};
  return FT_Get_Color_Glyph_Paint(f->face, gid, FT_COLOR_INCLUDE_ROOT_TRANSFORM, &paint) != 0; /* COLRv1 */
}
