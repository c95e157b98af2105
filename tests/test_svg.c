/* test_svg.c: the SVG loader, feature by feature, with exact expected
 * encodings (element stream, path data, transforms, paints). CPU only. */
#include "svg_dump.h"

static cn_scene_builder *builder;
static cn_scene_data scene;
static cn_svg_stats stats;

#define SVG_OPEN "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "

/* Loads text; on failure prints the error and returns false (counted). */
static bool load_opt(const char *text, const cn_svg_options *opt) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  cn_result r = cn_svg_load_memory(builder, text, strlen(text), opt, &scene, &stats);
  if (r != CN_OK) {
    fprintf(stderr, "  load failed: %s: %s\n", cn_result_name(r), cn_last_error());
    test_failures++;
    return false;
  }
  return true;
}
static bool load(const char *text) { return load_opt(text, NULL); }

TEST(rect_fill_identity) {
  if (!load(SVG_OPEN "width=\"100\" height=\"50\"><rect x=\"10\" y=\"20\" width=\"30\" height=\"40\" fill=\"red\"/></svg>"))
    return;
  CHECK(scene.viewport[0] == 0 && scene.viewport[1] == 0 && scene.viewport[2] == 100 && scene.viewport[3] == 50);
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz)");
  CHECK_STR(dump_path(&scene, 0), "M10,20 L40,20 L40,60 L10,60 L10,20 Z");
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[1 0 0 1 0 0]");
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)");
  CHECK_EQ_U64(stats.fills, 1);
  CHECK_EQ_U64(stats.segments, 4);
  CHECK(stats.width == 100 && stats.height == 50);
}

TEST(viewbox_and_aspect_ratio) {
  if (!load(SVG_OPEN "width=\"200\" height=\"100\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\"/></svg>")) return;
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[10 0 0 10 50 0]"); /* xMidYMid meet */
  if (!load(SVG_OPEN "width=\"200\" height=\"100\" viewBox=\"0 0 10 10\" preserveAspectRatio=\"xMinYMin slice\">"
                     "<rect width=\"10\" height=\"10\"/></svg>"))
    return;
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[20 0 0 20 0 0]");
  if (!load(SVG_OPEN "width=\"200\" height=\"100\" viewBox=\"5 0 10 10\" preserveAspectRatio=\"none\">"
                     "<rect width=\"10\" height=\"10\"/></svg>"))
    return;
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[20 0 0 10 -100 0]");
  /* no width/height: the viewBox size */
  if (!load(SVG_OPEN "viewBox=\"0 0 30 20\"><rect width=\"1\" height=\"1\"/></svg>")) return;
  CHECK(scene.viewport[2] == 30 && scene.viewport[3] == 20);
}

TEST(output_size_options) {
  const char *svg = SVG_OPEN "width=\"200\" height=\"100\"><rect width=\"10\" height=\"10\"/></svg>";
  cn_svg_options o = {.width = 400};
  if (!load_opt(svg, &o)) return;
  CHECK(scene.viewport[2] == 400 && scene.viewport[3] == 200);
  CHECK_STR(dump_transform(&scene, 0), "[2 0 0 2 0 0]");
  o = (cn_svg_options){.width = 100, .height = 100}; /* fitted and centred */
  if (!load_opt(svg, &o)) return;
  CHECK(scene.viewport[2] == 100 && scene.viewport[3] == 100);
  CHECK_STR(dump_transform(&scene, 0), "[0.5 0 0 0.5 0 25]");
  o = (cn_svg_options){.scale = 3};
  if (!load_opt(svg, &o)) return;
  CHECK(scene.viewport[2] == 600 && scene.viewport[3] == 300);
  CHECK_STR(dump_transform(&scene, 0), "[3 0 0 3 0 0]");
}

TEST(path_data_grammar) {
  /* relative forms, implicit repeats, H/V, S and T reflections, Z then drawing */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><path d=\"M10 10 h10 v10 z m5 5 l1 1 2 2 "
                     "M0 0 C 1 1 2 1 3 0 S 5 -1 6 0 Q 7 1 8 0 T 10 0 t2 0 L 0 0z l5-5\"/></svg>"))
    return;
  CHECK_STR(dump_path(&scene, 0),
            "M10,10 L20,10 L20,20 L10,10 Z M15,15 L16,16 L18,18 M0,0 C1,1 2,1 3,0 C4,-1 5,-1 6,0 Q7,1 8,0 "
            "Q9,-1 10,0 Q11,1 12,0 L0,0 Z M0,0 L5,-5");
  /* fill paths are closed: the fill twin adds the closing lines */
  CHECK_STR(dump_elements(&scene), "FILL(p1,k0,nz)");
  CHECK_STR(dump_path(&scene, 1),
            "M10,10 L20,10 L20,20 L10,10 Z M15,15 L16,16 L18,18 L15,15 Z M0,0 C1,1 2,1 3,0 C4,-1 5,-1 6,0 "
            "Q7,1 8,0 Q9,-1 10,0 Q11,1 12,0 L0,0 Z M0,0 L5,-5 L0,0 Z");
  /* compact numbers: "M.5.5-1e1,2" and flags run together in arcs */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><path d=\"M.5.5L-1e1,2\"/></svg>")) return;
  CHECK_STR(dump_path(&scene, 0), "M0.5,0.5 L-10,2");
}

TEST(path_error_renders_up_to_error) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><path d=\"M0 0 L10 10 L20 x L30 30\"/>"
                     "<path d=\"M0 0 L NaN 5 L5 5\"/><path d=\"L5 5\"/></svg>"))
    return;
  CHECK_STR(dump_path(&scene, 0), "M0,0 L10,10");
  CHECK_EQ_U64(scene.path_count, 2);          /* the first path and its fill twin */
  CHECK_STR(dump_elements(&scene), "FILL(p1,k0,nz)"); /* "M0 0" alone and "L5 5" draw nothing */
}

TEST(arcs_become_cubics) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><path d=\"M0 0 A10 10 0 0 1 20 0\" fill=\"none\" stroke=\"red\"/>"
                     "<path d=\"M0 0 a5 5 0 1 0 0.001 0\" fill=\"none\" stroke=\"red\"/>"
                     "<path d=\"M0 0 A0 5 0 0 1 20 0\" fill=\"none\" stroke=\"red\"/></svg>"))
    return;
  /* a half circle: two quarter cubics through (10,-10): sweep 1 is clockwise on a y-down screen */
  CHECK_STR(dump_path(&scene, 0), "M0,0 C0,-5.52285 4.47715,-10 10,-10 C15.5228,-10 20,-5.52285 20,0");
  CHECK_EQ_U64(scene.paths[1].seg_count, 4); /* a large arc: almost a full circle */
  const cn_segment *last = &scene.segments[scene.paths[1].seg_first + 3];
  CHECK(last->x3 == 0.001f && last->y3 == 0); /* ends exactly at the end point */
  CHECK_STR(dump_path(&scene, 2), "M0,0 L20,0"); /* a zero radius is a line */
}

TEST(basic_shapes) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\">"
                     "<circle cx=\"50\" cy=\"50\" r=\"10\"/>"
                     "<ellipse cx=\"0\" cy=\"0\" rx=\"4\" ry=\"2\"/>"
                     "<line x1=\"1\" y1=\"2\" x2=\"3\" y2=\"4\" stroke=\"black\"/>"
                     "<polyline points=\"0,0 10,0 10,10 5\" fill=\"none\" stroke=\"black\"/>"
                     "<polygon points=\"0 0 10 0 10 10\"/>"
                     "<rect width=\"20\" height=\"10\" rx=\"2\"/>"
                     "<rect width=\"0\" height=\"10\"/><circle r=\"-1\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz) STROKE(p2,k0,s0) STROKE(p3,k0,s1) "
                                   "FILL(p4,k0,nz) FILL(p5,k0,nz)");
  CHECK_STR(dump_path(&scene, 0), "M60,50 C60,55.5228 55.5228,60 50,60 C44.4772,60 40,55.5228 40,50 "
                                  "C40,44.4772 44.4772,40 50,40 C55.5228,40 60,44.4772 60,50 Z");
  CHECK_STR(dump_path(&scene, 1), "M4,0 C4,1.10457 2.20914,2 0,2 C-2.20914,2 -4,1.10457 -4,0 "
                                  "C-4,-1.10457 -2.20914,-2 0,-2 C2.20914,-2 4,-1.10457 4,0 Z");
  CHECK_STR(dump_path(&scene, 2), "M1,2 L3,4");
  CHECK_STR(dump_path(&scene, 3), "M0,0 L10,0 L10,10"); /* the odd coordinate is dropped */
  CHECK_STR(dump_path(&scene, 4), "M0,0 L10,0 L10,10 L0,0 Z");
  CHECK_STR(dump_path(&scene, 5), "M2,0 L18,0 C19.1046,0 20,0.895431 20,2 L20,8 C20,9.10457 19.1046,10 18,10 "
                                  "L2,10 C0.895431,10 0,9.10457 0,8 L0,2 C0,0.895431 0.895431,0 2,0 Z");
}

TEST(transforms) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\">"
                     "<g transform=\"translate(10,20) scale(2)\"><rect width=\"1\" height=\"1\" transform=\"rotate(90)\"/></g>"
                     "<rect width=\"1\" height=\"1\" transform=\"rotate(90 5 5)\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"matrix(1 2 3 4 5 6) skewX(45)\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"scale(2)\" transform-origin=\"10 10\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"translate(1 1) bogus(3)\"/></svg>"))
    return;
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[0 2 -2 0 10 20]");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[0 1 -1 0 10 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[1 2 4 6 5 6]");
  CHECK_STR(dump_transform(&scene, scene.paths[3].transform), "[2 0 0 2 -10 -10]");
  CHECK_STR(dump_transform(&scene, scene.paths[4].transform), "[1 0 0 1 0 0]"); /* invalid: ignored */
}

TEST(colours) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\" color=\"#00ff00\">"
                     "<rect width=\"1\" height=\"1\" fill=\"#f00\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"#0000ff80\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"rgb(100%, 50%, 0%)\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"rgba(255,0,0,0.25)\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"hsl(120, 100%, 25%)\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"ReD\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"currentColor\" fill-opacity=\"0.5\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"#abcd\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"nonsense\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"transparent\"/></svg>"))
    return;
  static const char *const want[] = {"solid(1,0,0,1)", "solid(0,0,1,0.501961)", "solid(1,0.5,0,1)",
                                     "solid(1,0,0,0.25)", "solid(0,0.5,0,1)", "solid(1,0,0,1)",
                                     "solid(0,1,0,0.5)", "solid(0.666667,0.733333,0.8,0.866667)",
                                     "solid(0,0,0,1)", "solid(0,0,0,0)"};
  CHECK_EQ_U64(scene.element_count, 10);
  for (uint32_t i = 0; i < 10 && i < scene.element_count; i++)
    CHECK_STR(dump_paint(&scene, scene.elements[i].paint), want[i]);
}

TEST(css_cascade) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\"><style>"
                     "/* comment */ rect { fill: red } .a { fill: blue } #b { fill: green }\n"
                     "[data-x=\"y\"] { fill: yellow } g > .c { fill: purple } * { stroke-width: 3 }"
                     " .imp { fill: olive !important } @media print { rect { fill: black } }"
                     " g .d, .e { fill: navy } p + rect { fill: black }</style>"
                     "<rect width=\"1\" height=\"1\"/>"
                     "<rect class=\"a\" width=\"1\" height=\"1\" fill=\"black\"/>"
                     "<rect class=\"a\" id=\"b\" width=\"1\" height=\"1\"/>"
                     "<rect data-x=\"y\" width=\"1\" height=\"1\"/>"
                     "<g><rect class=\"c\" width=\"1\" height=\"1\"/></g>"
                     "<rect class=\"c\" width=\"1\" height=\"1\"/>"
                     "<rect class=\"a imp\" id=\"b\" width=\"1\" height=\"1\" style=\"fill: white\"/>"
                     "<rect class=\"a\" width=\"1\" height=\"1\" style=\"fill:aqua\"/>"
                     "<g><g><rect class=\"d\" width=\"1\" height=\"1\"/></g></g>"
                     "<rect class=\"e\" width=\"1\" height=\"1\" stroke=\"red\"/></svg>"))
    return;
  static const char *const want[] = {"solid(1,0,0,1)",          "solid(0,0,1,1)", "solid(0,0.501961,0,1)",
                                     "solid(1,1,0,1)",          "solid(0.501961,0,0.501961,1)",
                                     "solid(1,0,0,1)",          "solid(0.501961,0.501961,0,1)",
                                     "solid(0,1,1,1)",          "solid(0,0,0.501961,1)",
                                     "solid(0,0,0.501961,1)"};
  CHECK_EQ_U64(scene.element_count, 11);
  for (uint32_t i = 0; i < 10 && i < scene.element_count; i++)
    CHECK_STR(dump_paint(&scene, scene.elements[i].paint), want[i]);
  if (scene.element_count == 11) {
    CHECK(scene.elements[10].tag == CN_TAG_STROKE);
    CHECK(scene.strokes[scene.elements[10].aux].width == 3); /* universal selector */
  }
}

TEST(inheritance_and_visibility) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\"><g fill=\"blue\" stroke=\"red\" stroke-width=\"2\" opacity=\"1\">"
                     "<rect width=\"1\" height=\"1\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"inherit\" stroke=\"none\"/>"
                     "<g display=\"none\"><rect width=\"1\" height=\"1\"/></g>"
                     "<g visibility=\"hidden\"><rect width=\"1\" height=\"1\"/>"
                     "<rect width=\"1\" height=\"1\" visibility=\"visible\" stroke=\"none\"/></g>"
                     "</g></svg>"))
    return;
  /* paints: a colour equal to the one just defined is shared, blue comes back as k2 */
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) STROKE(p0,k1,s0) FILL(p1,k2,nz) FILL(p2,k2,nz)");
  CHECK_STR(dump_paint(&scene, 0), "solid(0,0,1,1)");
  CHECK_STR(dump_paint(&scene, 1), "solid(1,0,0,1)");
  CHECK(scene.strokes[0].width == 2);
}

TEST(strokes) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><path d=\"M0 0 L10 0\" fill=\"none\" stroke=\"black\" "
                     "stroke-width=\"4\" stroke-linejoin=\"round\" stroke-linecap=\"square\" stroke-miterlimit=\"7\" "
                     "stroke-dasharray=\"1 2 3\" stroke-dashoffset=\"5\"/>"
                     "<path d=\"M0 0 L10 0\" fill=\"none\" stroke=\"black\" stroke-dasharray=\"1 -2\" "
                     "stroke-linejoin=\"miter-clip\"/>"
                     "<rect width=\"5\" height=\"5\" fill=\"red\" stroke=\"blue\" paint-order=\"stroke\"/>"
                     "<rect width=\"5\" height=\"5\" stroke=\"blue\" stroke-width=\"0\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "STROKE(p0,k0,s0) STROKE(p1,k0,s1) STROKE(p2,k1,s2) FILL(p2,k2,nz) FILL(p3,k3,nz)");
  const cn_stroke *s = &scene.strokes[0];
  CHECK(s->width == 4 && s->join == CN_JOIN_ROUND && s->cap == CN_CAP_SQUARE && s->miter_limit == 7 &&
        s->dash_count == 6 && s->dash_offset == 5);
  static const float want[6] = {1, 2, 3, 1, 2, 3};
  for (int i = 0; i < 6; i++) CHECK(scene.dashes[s->dash_first + i] == want[i]);
  s = &scene.strokes[1];
  CHECK(s->dash_count == 0 && s->join == CN_JOIN_MITER_CLIP && s->width == 1 && s->miter_limit == 4);
}

TEST(opacity_and_blend_groups) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\">"
                     "<g opacity=\"0.5\"><rect width=\"1\" height=\"1\"/><rect width=\"2\" height=\"2\"/></g>"
                     "<rect width=\"1\" height=\"1\" fill=\"red\" opacity=\"0.5\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"red\" stroke=\"blue\" opacity=\"0.25\"/>"
                     "<g style=\"mix-blend-mode: multiply\"><rect width=\"1\" height=\"1\"/></g>"
                     "<g style=\"isolation:isolate\"><rect width=\"1\" height=\"1\" style=\"mix-blend-mode:difference\"/></g>"
                     "<g isolation=\"isolate\"><rect width=\"1\" height=\"1\" mix-blend-mode=\"difference\"/></g>"
                     "</svg>"))
    return;
  CHECK_STR(dump_elements(&scene),
            "BLEND(normal,0.5) FILL(p0,k0,nz) FILL(p1,k0,nz) /BLEND FILL(p2,k1,nz) "
            "BLEND(normal,0.25) FILL(p3,k2,nz) STROKE(p3,k3,s0) /BLEND "
            "BLEND(multiply,1) FILL(p4,k4,nz) /BLEND "
            "BLEND(normal,1) BLEND(difference,1) FILL(p5,k4,nz) /BLEND /BLEND FILL(p6,k4,nz)");
  /* isolation and mix-blend-mode are CSS properties, not presentation attributes: the last pair is plain */
  CHECK_STR(dump_paint(&scene, 1), "solid(1,0,0,0.5)"); /* a lone fill: opacity folded */
  CHECK_EQ_U64(stats.blend_groups, 5);
  CHECK_EQ_U64(stats.max_depth, 2);
}

TEST(clip_path_single_child) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><defs>"
                     "<clipPath id=\"c\" transform=\"translate(1 0)\"><rect x=\"5\" y=\"5\" width=\"10\" height=\"10\" "
                     "transform=\"scale(2)\" clip-rule=\"evenodd\"/></clipPath></defs>"
                     "<g clip-path=\"url(#c)\"><rect width=\"50\" height=\"50\"/></g></svg>"))
    return;
  /* the content is encoded first (clips may need its bounds), the clip moved in front */
  CHECK_STR(dump_elements(&scene), "CLIP(p1,eo) FILL(p0,k0,nz) /CLIP");
  CHECK_STR(dump_path(&scene, 1), "M5,5 L15,5 L15,15 L5,15 L5,5 Z");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[2 0 0 2 1 0]");
  CHECK_EQ_U64(stats.clips, 1);
}

TEST(clip_path_object_bounding_box) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><clipPath id=\"c\" clipPathUnits=\"objectBoundingBox\">"
                     "<rect width=\"0.5\" height=\"1\"/></clipPath>"
                     "<rect x=\"10\" y=\"20\" width=\"40\" height=\"10\" clip-path=\"url(#c)\" transform=\"translate(5 5)\"/>"
                     "</svg>"))
    return;
  /* the clip opening is moved in front of the content it needed the bounds of */
  CHECK_STR(dump_elements(&scene), "CLIP(p1,nz) FILL(p0,k0,nz) /CLIP");
  CHECK_STR(dump_path(&scene, 1), "M0,0 L0.5,0 L0.5,1 L0,1 L0,0 Z");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[40 0 0 10 15 25]");
  /* objectBoundingBox on the clip-path of a userSpaceOnUse clipPath: bounds still known */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><clipPath id=\"o\" clipPathUnits=\"objectBoundingBox\">"
                     "<rect width=\"0.5\" height=\"1\"/></clipPath><clipPath id=\"c\" clip-path=\"url(#o)\">"
                     "<rect width=\"30\" height=\"30\"/></clipPath>"
                     "<rect x=\"10\" y=\"20\" width=\"40\" height=\"10\" clip-path=\"url(#c)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "CLIP(p1,nz) CLIP(p2,nz) FILL(p0,k0,nz) /CLIP /CLIP");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[40 0 0 10 10 20]");
  CHECK_STR(dump_path(&scene, 2), "M0,0 L30,0 L30,30 L0,30 L0,0 Z");
}

TEST(clip_path_several_children_is_alpha_mask) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><clipPath id=\"c\">"
                     "<rect width=\"10\" height=\"10\"/><circle cx=\"20\" cy=\"20\" r=\"5\" clip-rule=\"evenodd\"/>"
                     "<g><rect width=\"1\" height=\"1\"/></g><text/></clipPath>"
                     "<rect width=\"50\" height=\"50\" fill=\"blue\" clip-path=\"url(#c)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene),
            "MASK(alpha) FILL(p1,k1,nz) FILL(p2,k1,eo) /BLEND MASKED(normal,1) FILL(p0,k0,nz) /BLEND");
  CHECK_STR(dump_paint(&scene, 1), "solid(1,1,1,1)");
  CHECK_EQ_U64(stats.masks, 1);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_TEXT], 0); /* text is a valid child; this one has no outline */
}

TEST(clip_path_nested_and_empty) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\">"
                     "<clipPath id=\"outer\"><rect width=\"30\" height=\"30\"/></clipPath>"
                     "<clipPath id=\"inner\" clip-path=\"url(#outer)\"><rect width=\"20\" height=\"40\"/></clipPath>"
                     "<clipPath id=\"none\"></clipPath>"
                     "<rect width=\"50\" height=\"50\" clip-path=\"url(#inner)\"/>"
                     "<rect width=\"50\" height=\"50\" clip-path=\"url(#none)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "CLIP(p1,nz) CLIP(p2,nz) FILL(p0,k0,nz) /CLIP /CLIP");
  CHECK_STR(dump_path(&scene, 1), "M0,0 L30,0 L30,30 L0,30 L0,0 Z");
  CHECK_STR(dump_path(&scene, 2), "M0,0 L20,0 L20,40 L0,40 L0,0 Z");
}

TEST(masks) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><mask id=\"m\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" "
                     "width=\"50\" height=\"60\"><rect width=\"10\" height=\"10\" fill=\"white\"/></mask>"
                     "<mask id=\"a\" style=\"mask-type: alpha\"><rect width=\"1\" height=\"1\"/></mask>"
                     "<rect width=\"20\" height=\"20\" fill=\"red\" mask=\"url(#m)\" opacity=\"0.5\" "
                     "style=\"mix-blend-mode:screen\"/>"
                     "<rect x=\"10\" y=\"10\" width=\"20\" height=\"40\" mask=\"url(#a)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene),
            "MASK(lum) CLIP(p1,nz) FILL(p2,k1,nz) /CLIP /BLEND MASKED(screen,0.5) FILL(p0,k0,nz) /BLEND "
            "MASK(alpha) CLIP(p4,nz) FILL(p5,k2,nz) /CLIP /BLEND MASKED(normal,1) FILL(p3,k2,nz) /BLEND");
  CHECK_STR(dump_path(&scene, 1), "M0,0 L50,0 L50,60 L0,60 L0,0 Z");
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)");
  CHECK_STR(dump_paint(&scene, 1), "solid(1,1,1,1)");
  /* objectBoundingBox region: -10% .. 120% of the 20x40 box at 10,10 */
  CHECK_STR(dump_path(&scene, 4), "M8,6 L32,6 L32,54 L8,54 L8,6 Z");
  CHECK_EQ_U64(stats.masks, 2);
}

TEST(gradients) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><defs>"
                     "<linearGradient id=\"base\" spreadMethod=\"reflect\"><stop offset=\"0\" stop-color=\"red\"/>"
                     "<stop offset=\"50%\" stop-color=\"blue\" stop-opacity=\"0.5\"/><stop offset=\"0.2\" "
                     "style=\"stop-color: lime\"/></linearGradient>"
                     "<linearGradient id=\"g\" xlink:href=\"#base\" x1=\"0\" x2=\"0\" y2=\"1\"/>"
                     "<radialGradient id=\"r\" href=\"#base\" gradientUnits=\"userSpaceOnUse\" cx=\"10\" cy=\"20\" "
                     "r=\"30\" fx=\"12\" gradientTransform=\"scale(2)\"/>"
                     "<linearGradient id=\"one\"><stop stop-color=\"navy\"/></linearGradient>"
                     "<linearGradient id=\"empty\"/></defs>"
                     "<rect x=\"10\" y=\"10\" width=\"20\" height=\"40\" fill=\"url(#g)\" fill-opacity=\"0.5\"/>"
                     "<rect width=\"20\" height=\"40\" fill=\"url(#r)\"/>"
                     "<rect width=\"20\" height=\"40\" fill=\"url(#one)\"/>"
                     "<rect width=\"20\" height=\"40\" fill=\"url(#empty)\"/>"
                     "<rect width=\"20\" height=\"40\" fill=\"url(#missing) green\"/></svg>"))
    return;
  CHECK_EQ_U64(scene.element_count, 4);
  CHECK_STR(dump_paint(&scene, scene.elements[0].paint),
            "linear(0,0,0,1,reflect,op=0.5,xf=[20 0 0 40 10 10] 0:1,0,0,1 0.5:0,0,1,0.5 0.5:0,1,0,1)");
  CHECK_STR(dump_paint(&scene, scene.elements[1].paint),
            "radial(10,20,30,12,20,0,reflect,op=1,xf=[2 0 0 2 0 0] 0:1,0,0,1 0.5:0,0,1,0.5 0.5:0,1,0,1)");
  CHECK_STR(dump_paint(&scene, scene.elements[2].paint), "solid(0,0,0.501961,1)");
  CHECK_STR(dump_paint(&scene, scene.elements[3].paint), "solid(0,0.501961,0,1)");
}

TEST(use_symbol_nested_svg) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><defs><rect id=\"r\" width=\"2\" height=\"3\"/>"
                     "<symbol id=\"s\" viewBox=\"0 0 10 10\"><rect width=\"10\" height=\"10\"/></symbol></defs>"
                     "<use href=\"#r\" x=\"5\" y=\"6\" fill=\"red\"/>"
                     "<use xlink:href=\"#s\" x=\"1\" width=\"20\" height=\"20\"/>"
                     "<svg x=\"10\" y=\"10\" width=\"30\" height=\"30\" viewBox=\"0 0 3 3\" overflow=\"visible\">"
                     "<rect width=\"1\" height=\"1\"/></svg>"
                     "<use href=\"#nope\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) CLIP(p1,nz) FILL(p2,k1,nz) /CLIP FILL(p3,k1,nz)");
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[1 0 0 1 5 6]");
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)"); /* inherited from the use */
  CHECK_STR(dump_path(&scene, 1), "M0,0 L20,0 L20,20 L0,20 L0,0 Z");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[1 0 0 1 1 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[2 0 0 2 1 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[3].transform), "[10 0 0 10 10 10]");
  CHECK_EQ_U64(stats.warning_count, 1);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_MISSING_REF], 1);
  CHECK_STR_CONTAINS(stats.warnings[0], "line 1: <use> references #nope, which does not exist");
}

TEST(switch_and_conditions) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\"><switch>"
                     "<rect width=\"1\" height=\"1\" systemLanguage=\"fr\" fill=\"red\"/>"
                     "<rect width=\"1\" height=\"1\" requiredExtensions=\"http://x\" fill=\"red\"/>"
                     "<rect width=\"1\" height=\"1\" systemLanguage=\"de, en-US\" fill=\"green\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"blue\"/></switch></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz)");
  CHECK_STR(dump_paint(&scene, 0), "solid(0,0.501961,0,1)");
}

TEST(markers_expand_to_geometry) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><marker id=\"m\" markerWidth=\"4\" markerHeight=\"4\" refX=\"1\" "
                     "refY=\"1\" orient=\"auto\" markerUnits=\"userSpaceOnUse\"><rect width=\"2\" height=\"2\"/></marker>"
                     "<path d=\"M0 0 L10 0 L10 10\" fill=\"none\" stroke=\"black\" marker-start=\"url(#m)\" "
                     "marker-mid=\"url(#m)\" marker-end=\"url(#m)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "STROKE(p0,k0,s0) CLIP(p1,nz) FILL(p2,k0,nz) /CLIP CLIP(p3,nz) FILL(p4,k0,nz) "
                                   "/CLIP CLIP(p5,nz) FILL(p6,k0,nz) /CLIP");
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[1 0 0 1 -1 -1]");  /* start: 0 degrees */
  CHECK_STR(dump_transform(&scene, scene.paths[4].transform), "[0.707107 0.707107 -0.707107 0.707107 10 -1.41421]"); /* mid: 45 */
  CHECK_STR(dump_transform(&scene, scene.paths[6].transform), "[0 1 -1 0 11 9]"); /* end: 90 */
  /* a closed subpath: the start takes its outgoing direction, the end its incoming one (as resvg) */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><marker id=\"m\" orient=\"auto\" overflow=\"visible\" "
                     "markerUnits=\"userSpaceOnUse\"><rect width=\"2\" height=\"2\"/></marker>"
                     "<path d=\"M0 0 L10 0 Z\" fill=\"none\" marker-start=\"url(#m)\" marker-mid=\"url(#m)\" "
                     "marker-end=\"url(#m)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz) FILL(p2,k0,nz)");
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[1 0 0 1 0 0]");    /* start: 0 */
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[0 1 -1 0 10 0]");   /* mid: bisector of 0, 180 */
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[-1 0 -0 -1 0 0]"); /* end: 180 */
}

TEST(skipped_content_is_counted) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\" xmlns:foo=\"http://example.com/foo\">"
                     "<image href=\"x.png\" width=\"1\" height=\"1\"/><image href=\"data:,GIF89a\"/><filter id=\"f\"/>"
                     "<rect width=\"1\" height=\"1\" filter=\"url(#f)\"/><foreignObject/><foo:bar/><blink/>"
                     "<pattern id=\"p\" width=\"1\" height=\"1\"><rect width=\"1\" height=\"1\"/></pattern>"
                     "<rect width=\"1\" height=\"1\" fill=\"none\" stroke=\"url(#p) red\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "STROKE(p0,k0,s0)"); /* a pattern stroke: the fallback colour */
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)");
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_IMAGE], 1);   /* a truncated GIF */
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_REFUSED], 1); /* a relative file without a document directory */
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_FILTER], 1);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_FOREIGN], 2);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_UNKNOWN], 1);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_PATTERN], 1);
}

TEST(simple_entities_in_attributes) {
  if (!load("<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY red \"#ff0000\"> <!ENTITY w \"10\"> ]>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"&w;\" height=\"10\">"
            "<rect width=\"1\" height=\"1\" fill=\"&red;\"/></svg>"))
    return;
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)");
  CHECK(scene.viewport[2] == 10);
}

TEST(root_effects_and_conditions) {
  if (!load(SVG_OPEN "width=\"10\" height=\"10\" opacity=\"0.5\"><rect width=\"1\" height=\"1\"/>"
                     "<rect width=\"2\" height=\"2\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "BLEND(normal,0.5) FILL(p0,k0,nz) FILL(p1,k0,nz) /BLEND");
  if (!load(SVG_OPEN "width=\"10\" height=\"10\" systemLanguage=\"ru\"><rect width=\"1\" height=\"1\"/></svg>"))
    return;
  CHECK_EQ_U64(scene.element_count, 0);
}

TEST(entity_content_and_style_comments) {
  if (!load("<!DOCTYPE svg [ <!ENTITY R \"<rect id='r' width='2' height='3' fill='green'/>\"> ]>\n" SVG_OPEN
            "width=\"10\" height=\"10\"><g transform=\"translate(1 1)\">&R;</g><use href=\"#r\" x=\"5\"/>"
            "<rect width=\"1\" height=\"1\" style=\"/* a */fill:blue/* b */\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz) FILL(p2,k1,nz)");
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[1 0 0 1 1 1]");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[1 0 0 1 5 0]");
  CHECK_STR(dump_paint(&scene, 1), "solid(0,0,1,1)");
}

TEST(css_transform_and_transform_origin) {
  if (!load(SVG_OPEN "width=\"200\" height=\"100\"><style>#a { transform: translate(10px, 5px) rotate(90deg) }</style>"
                     "<rect id=\"a\" width=\"1\" height=\"1\" transform=\"scale(9)\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"scale(2)\" transform-origin=\"bottom\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"scale(2)\" transform-origin=\"center\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"scale(2)\" transform-origin=\"top left\"/>"
                     "<rect width=\"1\" height=\"1\" transform=\"scale(2)\" transform-origin=\"10\"/></svg>"))
    return;
  CHECK_STR(dump_transform(&scene, scene.paths[0].transform), "[0 1 -1 0 10 5]"); /* the CSS property wins */
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[2 0 0 2 -100 -100]"); /* origin 100,100 */
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[2 0 0 2 -100 -50]");  /* origin 100,50 */
  CHECK_STR(dump_transform(&scene, scene.paths[3].transform), "[2 0 0 2 0 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[4].transform), "[2 0 0 2 -10 -50]");   /* y: centre */
}

TEST(clip_transform_order_and_cycles) {
  /* the clipPath's transform is in user units, before the objectBoundingBox mapping */
  if (!load(SVG_OPEN "width=\"200\" height=\"200\"><clipPath id=\"c\" clipPathUnits=\"objectBoundingBox\" "
                     "transform=\"translate(100 -40)\"><rect width=\"0.5\" height=\"0.5\"/></clipPath>"
                     "<clipPath id=\"self\" clip-path=\"url(#self)\"><rect width=\"5\" height=\"5\"/></clipPath>"
                     "<rect width=\"200\" height=\"100\" clip-path=\"url(#c)\"/>"
                     "<rect width=\"20\" height=\"20\" clip-path=\"url(#self)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "CLIP(p1,nz) FILL(p0,k0,nz) /CLIP CLIP(p3,nz) FILL(p2,k0,nz) /CLIP");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[200 0 0 100 100 -40]");
  CHECK_STR(dump_path(&scene, 3), "M0,0 L5,0 L5,5 L0,5 L0,0 Z"); /* the cyclic reference is ignored */
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_CYCLE], 1);
}

TEST(paint_fallbacks_and_current_color) {
  if (!load(SVG_OPEN "width=\"200\" height=\"200\"><linearGradient id=\"none\"/>"
                     "<linearGradient id=\"g\"><stop offset=\"5mm\" stop-color=\"red\"/><stop offset=\"1\" "
                     "stop-color=\"blue\"/></linearGradient>"
                     "<rect width=\"1\" height=\"1\" fill=\"url(#none) green\"/>"
                     "<line x2=\"10\" stroke=\"url(#g) lime\"/>"
                     "<rect width=\"2\" height=\"1\" fill=\"url(#g)\"/>"
                     "<g fill=\"currentColor\"><rect width=\"1\" height=\"1\" color=\"blue\"/></g>"
                     "<rect width=\"1\" height=\"1\" fill=\"url(#none) currentColor\" color=\"red\"/></svg>"))
    return;
  CHECK_EQ_U64(scene.element_count, 5);
  CHECK_STR(dump_paint(&scene, scene.elements[0].paint), "solid(0,0.501961,0,1)"); /* no stops: the fallback */
  CHECK_STR(dump_paint(&scene, scene.elements[1].paint), "solid(0,1,0,1)");      /* no area: the fallback */
  CHECK_STR(dump_paint(&scene, scene.elements[2].paint),
            "linear(0,0,1,0,pad,op=1,xf=[2 0 0 1 0 0] 0:1,0,0,1 1:0,0,1,1)"); /* "5mm" is offset 0 */
  CHECK_STR(dump_paint(&scene, scene.elements[3].paint), "solid(0,0,1,1)"); /* currentColor of the rect */
  CHECK_STR(dump_paint(&scene, scene.elements[4].paint), "solid(1,0,0,1)");
}

TEST(switch_symbol_and_markers_on_shapes) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><switch><blink/><rect width=\"1\" height=\"1\" fill=\"green\"/>"
                     "</switch><symbol id=\"s\" opacity=\"0.5\"><rect width=\"1\" height=\"1\"/></symbol>"
                     "<use href=\"#s\"/><marker id=\"m\" overflow=\"visible\" markerUnits=\"userSpaceOnUse\">"
                     "<rect width=\"1\" height=\"1\"/></marker>"
                     "<rect width=\"10\" height=\"10\" fill=\"none\" marker-start=\"url(#m)\"/></svg>"))
    return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) BLEND(normal,0.5) CLIP(p1,nz) FILL(p2,k1,nz) /CLIP /BLEND "
                                   "FILL(p3,k1,nz)");
  CHECK_STR(dump_paint(&scene, 0), "solid(0,0.501961,0,1)");
}

TEST(context_fill_and_stroke) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><marker id=\"m\" overflow=\"visible\" markerUnits=\"userSpaceOnUse\">"
                     "<rect width=\"1\" height=\"1\" fill=\"context-stroke\" stroke=\"context-fill\"/></marker>"
                     "<linearGradient id=\"g\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/>"
                     "</linearGradient><rect id=\"r\" width=\"4\" height=\"2\" fill=\"context-fill\"/>"
                     "<path d=\"M0 0 L10 0\" fill=\"lime\" stroke=\"navy\" marker-end=\"url(#m)\"/>"
                     "<use href=\"#r\" fill=\"url(#g)\" x=\"10\"/>"
                     "<rect width=\"1\" height=\"1\" fill=\"context-fill\"/></svg>"))
    return;
  /* the marker rect: fill = the path's stroke, stroke = the path's fill; the
   * used rect: the use's gradient over the use's bounds; outside any context: none */
  CHECK_STR(dump_elements(&scene), "FILL(p1,k0,nz) STROKE(p0,k1,s0) FILL(p2,k1,nz) STROKE(p2,k2,s1) FILL(p3,k3,nz)");
  CHECK_STR(dump_paint(&scene, 0), "solid(0,1,0,1)");
  CHECK_STR(dump_paint(&scene, 1), "solid(0,0,0.501961,1)");
  CHECK_STR(dump_paint(&scene, 2), "solid(0,1,0,1)");
  CHECK_STR(dump_paint(&scene, 3), "linear(0,0,1,0,pad,op=1,xf=[4 0 0 2 10 0] 0:1,0,0,1 1:0,0,1,1)");
}

TEST(pattern_fill_as_tiles) {
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><pattern id=\"p\" patternUnits=\"userSpaceOnUse\" width=\"10\" "
                     "height=\"20\" patternTransform=\"translate(5 0)\"><rect width=\"5\" height=\"5\" fill=\"red\"/>"
                     "</pattern><pattern id=\"q\" href=\"#p\" x=\"2\"/><pattern id=\"e\" width=\"1\" height=\"1\"/>"
                     "<rect x=\"5\" width=\"15\" height=\"10\" fill=\"url(#q)\" fill-opacity=\"0.5\" fill-rule=\"evenodd\"/>"
                     "<rect width=\"15\" height=\"10\" fill=\"url(#e) blue\"/></svg>"))
    return;
  /* tiles at pattern-space x = 2 + 10 i (user x = 7 + 10 i) meeting user x 5..20: i = -1, 0, 1 */
  CHECK_STR(dump_elements(&scene), "BLEND(normal,0.5) CLIP(p0,eo) CLIP(p1,nz) FILL(p2,k0,nz) /CLIP CLIP(p3,nz) "
                                   "FILL(p4,k0,nz) /CLIP CLIP(p5,nz) FILL(p6,k0,nz) /CLIP /CLIP /BLEND");
  CHECK_STR(dump_path(&scene, 1), "M-8,0 L2,0 L2,20 L-8,20 L-8,0 Z");
  CHECK_STR(dump_transform(&scene, scene.paths[1].transform), "[1 0 0 1 5 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[2].transform), "[1 0 0 1 -3 0]");
  CHECK_STR(dump_transform(&scene, scene.paths[4].transform), "[1 0 0 1 7 0]"); /* tile origin 2, then +5 */
  CHECK_STR(dump_paint(&scene, 0), "solid(1,0,0,1)");
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_PATTERN], 0); /* a pattern without content paints nothing */
}

static void cleanup(void) {
  cn_scene_builder_destroy(builder);
  builder = NULL;
}

TEST(zz_cleanup) { cleanup(); }

TEST(bounds_of_a_group_ignore_nested_mask_content) {
  /* the group's objectBoundingBox clip needs the group's bounds (the rect,
   * 10..30); the rect's mask content has a clip-path of its own, whose
   * bounds gathering must not overwrite the group's */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\">"
                     "<clipPath id=\"cobb\" clipPathUnits=\"objectBoundingBox\"><rect width=\"1\" height=\"1\"/></clipPath>"
                     "<clipPath id=\"c2\"><rect width=\"100\" height=\"100\"/></clipPath>"
                     "<mask id=\"m\" maskUnits=\"userSpaceOnUse\" x=\"0\" y=\"0\" width=\"100\" height=\"100\">"
                     "<rect x=\"60\" y=\"60\" width=\"40\" height=\"40\" fill=\"white\" clip-path=\"url(#c2)\"/></mask>"
                     "<g clip-path=\"url(#cobb)\"><rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" mask=\"url(#m)\"/></g></svg>"))
    return;
  CHECK(scene.elements[0].tag == CN_TAG_BEGIN_CLIP);
  const cn_path *p = &scene.paths[scene.elements[0].path];
  CHECK_STR(dump_transform(&scene, p->transform), "[20 0 0 20 10 10]"); /* the unit square onto 10..30 */
}

TEST_MAIN(T(rect_fill_identity), T(bounds_of_a_group_ignore_nested_mask_content), T(viewbox_and_aspect_ratio), T(output_size_options), T(path_data_grammar),
          T(path_error_renders_up_to_error), T(arcs_become_cubics), T(basic_shapes), T(transforms), T(colours),
          T(css_cascade), T(inheritance_and_visibility), T(strokes), T(opacity_and_blend_groups),
          T(clip_path_single_child), T(clip_path_object_bounding_box), T(clip_path_several_children_is_alpha_mask),
          T(clip_path_nested_and_empty), T(masks), T(gradients), T(use_symbol_nested_svg), T(switch_and_conditions),
          T(markers_expand_to_geometry), T(skipped_content_is_counted), T(simple_entities_in_attributes),
          T(root_effects_and_conditions), T(entity_content_and_style_comments), T(css_transform_and_transform_origin),
          T(clip_transform_order_and_cycles), T(paint_fallbacks_and_current_color), T(switch_symbol_and_markers_on_shapes), T(context_fill_and_stroke), T(pattern_fill_as_tiles),
          T(zz_cleanup))
