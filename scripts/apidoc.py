#!/usr/bin/env python3
"""netsched's API reference: the doc blocks of the installed functions.

Every function declared in an installed header (each header of platforms/,
sched/ and analysis/ not named *_internal.h: cmake/Install.cmake) has one doc
block, in the .c file that defines it (or, for a static inline function, in
its header), in the skeleton of docs/api.md:

    /**
     * \\function ns_name
     * \\brief What it does, in one line.
     *
     * More about what it does (optional).
     *
     * \\param first What it is.       (one per parameter, in any order)
     * \\return What comes back.       (not for a void function)
     * \\errors What fails and how (NS_ERROR_INPUT ...), or "none".
     * \\complexity O(...) in time (and memory when it matters).
     * \\source The paper section, format document or issue it implements.
     */

  apidoc.py check SRC      lists every installed function whose block is
                           missing or lacks a field; exit 1 if any
  apidoc.py man SRC OUT V  writes OUT/<function>.3 for each documented
                           installed function (netsched version V)
  apidoc.py list SRC       prints "header function" for each installed function
"""
import os
import re
import sys

STAGES = ("platforms", "sched", "analysis")
FIELDS = ("brief", "errors", "complexity", "source")


def installed_headers(src):
    out = []
    for stage in STAGES:
        for root, _, files in os.walk(os.path.join(src, stage)):
            for f in files:
                if f.endswith(".h") and not f.endswith("_internal.h"):
                    out.append(os.path.relpath(os.path.join(root, f), src))
    return sorted(out)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: " " * 0 + "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    # GLib's declaration macros end without a semicolon:
    # G_DEFINE_AUTOPTR_CLEANUP_FUNC(NsTopology, ns_topology_free)
    text = re.sub(r"(?m)^\s*G_[A-Z_]+\([^;()]*\)\s*$", "", text)
    lines, keep = [], True
    cont = False
    for line in text.split("\n"):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines.append("")
            continue
        lines.append(line)
    return "\n".join(lines)


def split_params(params):
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def param_name(p):
    if p == "...":
        return "..."
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", p)  # a function pointer
    if m:
        return m.group(1)
    p = re.sub(r"\[[^\]]*\]", "", p)
    m = re.search(r"(\w+)\s*$", p)
    return m.group(1) if m else None


DECL_RE = re.compile(r"^(?P<ret>[\w\s\*]*?[\w\*])\s*\b(?P<name>ns_\w+)\s*\((?P<params>.*)\)$",
                     re.S)
ATTRIBUTE = re.compile(r"\s*G_GNUC_\w+(\s*\([^()]*\))?\s*$")


class DECL:  # DECL_RE after the trailing G_GNUC_* attributes are dropped
    @staticmethod
    def match(text):
        text = text.strip()
        while ATTRIBUTE.search(text):
            text = ATTRIBUTE.sub("", text)
        return DECL_RE.match(text)


def declared_functions(path):
    """(name, return type, [parameter names], prototype) of each function of a header."""
    text = strip_comments(open(path, encoding="utf-8").read())
    out, depth, stmt = [], 0, ""
    for ch in text:
        if ch == "{":
            if depth == 0:
                head = stmt
                stmt = ""
            depth += 1
            continue
        if ch == "}":
            depth -= 1
            if depth == 0:
                m = DECL.match(" ".join(head.split()))
                if m and "static" in m.group("ret"):  # static inline: defined here
                    out.append(make_decl(m))
                head = ""
                stmt = ""
            continue
        if depth > 0:
            continue
        if ch == ";":
            s = " ".join(stmt.split())
            stmt = ""
            if s.startswith("typedef") or s.startswith("extern \"C\""):
                continue
            m = DECL.match(s)
            if m:
                out.append(make_decl(m))
            continue
        stmt += ch
    return out


def make_decl(m):
    params = split_params(m.group("params"))
    if params in ([], ["void"]):
        names = []
    else:
        names = [param_name(p) for p in params]
    ret = " ".join(m.group("ret").split())
    proto = "%s %s(%s);" % (ret, m.group("name"), ", ".join(params) or "void")
    proto = proto.replace("static inline ", "").replace(" *", " *").replace("* ", "*")
    return m.group("name"), ret.replace("static", "").replace("inline", "").strip(), names, proto


BLOCK = re.compile(r"/\*\*(.*?)\*/", re.S)


def doc_blocks(src):
    """{function: {field: text, 'param': {name: text}, 'body': text, 'file': path}}"""
    blocks = {}
    for stage in STAGES:
        for root, _, files in os.walk(os.path.join(src, stage)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                for m in BLOCK.finditer(open(path, encoding="utf-8").read()):
                    lines = [re.sub(r"^\s*\* ?", "", l) for l in m.group(1).split("\n")]
                    text = "\n".join(lines).strip()
                    fm = re.match(r"\\function\s+(\w+)", text)
                    if fm:
                        blocks[fm.group(1)] = parse_block(text, os.path.relpath(path, src))
    return blocks


def parse_block(text, path):
    doc = {"param": {}, "file": path, "body": ""}
    parts = re.split(r"(?m)^\\(function|brief|param|return|errors|complexity|source)\b[ \t]*", text)
    body = []
    for tag, value in zip(parts[1::2], parts[2::2]):
        value = value.strip()
        if tag == "param":  # "\param name text" or "\param a, b text"
            m = re.match(r"((?:[\w.]+\s*,\s*)*[\w.]+)\s*(.*)", value, re.S)
            for name in re.split(r"\s*,\s*", m.group(1)):
                doc["param"][name] = " ".join(m.group(2).split())
        elif tag == "brief":
            first, _, more = value.partition("\n\n")
            doc["brief"] = " ".join(first.split())
            if more.strip():
                body.append(more.strip())
        elif tag == "function":
            continue
        else:
            doc[tag] = value
    doc["body"] = "\n\n".join(body)
    return doc


def problems_of(name, ret, params, doc):
    out = []
    for f in FIELDS:
        if not doc.get(f):
            out.append("no \\%s" % f)
    if ret != "void" and not doc.get("return"):
        out.append("no \\return")
    for p in params:
        if p and p not in doc["param"]:
            out.append("no \\param %s" % p)
    for p in doc["param"]:
        if p not in params:
            out.append("\\param %s is not a parameter" % p)
    return out


def functions(src):
    for h in installed_headers(src):
        for name, ret, params, proto in declared_functions(os.path.join(src, h)):
            yield h, name, ret, params, proto


def check(src):
    blocks = doc_blocks(src)
    bad, n, incomplete = [], 0, set()
    for h, name, ret, params, _ in functions(src):
        n += 1
        doc = blocks.get(name)
        problems = ["no doc block (\\function %s)" % name] if doc is None else \
            ["(%s): %s" % (doc["file"], p) for p in problems_of(name, ret, params, doc)]
        if problems:
            incomplete.add(name)
        bad += ["%s: %s %s" % (h, name, p) for p in problems]
    for line in bad:
        print(line)
    print("%d installed functions in %d headers, %d without a complete doc block"
          % (n, len(installed_headers(src)), len(incomplete)))
    return 1 if bad else 0


def roff(text):
    text = text.replace("\\", "\\e")
    out = []
    for para in re.split(r"\n\s*\n", text.strip()):
        para = " ".join(para.split())
        if para.startswith((".", "'")):
            para = "\\&" + para
        out.append(para)
    return "\n.PP\n".join(out)


def man(src, outdir, version):
    blocks = doc_blocks(src)
    os.makedirs(outdir, exist_ok=True)
    for old in os.listdir(outdir):
        if old.endswith(".3"):
            os.remove(os.path.join(outdir, old))
    written = 0
    for h, name, ret, params, proto in functions(src):
        doc = blocks.get(name)
        if doc is None:
            continue
        page = [".TH %s 3 \"\" \"netsched %s\" \"netsched library\"" % (name.upper(), version),
                ".SH NAME", "%s \\- %s" % (name, roff(doc.get("brief", ""))),
                ".SH SYNOPSIS", ".nf", "\\fB#include \"%s\"\\fP" % h, ".PP", roff(proto), ".fi",
                ".PP", "Compile and link with \\fIpkg-config --cflags --libs netsched\\fP."]
        if doc["body"]:
            page += [".SH DESCRIPTION", roff(doc["body"])]
        if params:
            page.append(".SH PARAMETERS")
            for p in params:
                page += [".TP", ".I %s" % p, roff(doc["param"].get(p, ""))]
        for title, field in (("RETURN VALUE", "return"), ("ERRORS", "errors"),
                             ("COMPLEXITY", "complexity"), ("SOURCE", "source")):
            if doc.get(field):
                page += [".SH " + title, roff(doc[field])]
        with open(os.path.join(outdir, name + ".3"), "w", encoding="utf-8") as f:
            f.write("\n".join(page) + "\n")
        written += 1
    print("apidoc: %d man3 pages in %s" % (written, outdir))
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "check":
        return check(argv[2])
    if len(argv) >= 5 and argv[1] == "man":
        return man(argv[2], argv[3], argv[4])
    if len(argv) >= 3 and argv[1] == "list":
        for h, name, _, _, _ in functions(argv[2]):
            print(h, name)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
