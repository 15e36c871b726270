#!/usr/bin/env bash
# Fails when Sources/ uses a Swift standard library, Foundation, Security or os API that is newer than the
# Apple platform floor the package declares — the check that stands in for an Apple build, which CI
# does not have (it builds and tests on Linux only).
#
#   Scripts/check-platform-floor.sh [--sources DIR] [--package FILE] [--list]
#
#   --sources DIR   the folder to scan, every .swift file under it (default: Sources next to Package.swift)
#   --package FILE  the manifest whose `platforms:` line gives the floor (default: this repository's)
#   --list          print the table of symbols and their first versions, and exit
#
# The floor is read from the single line of Package.swift that holds `platforms:`, and it must name all
# four of iOS, macOS, tvOS and watchOS (`.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9)`).
#
# The table below (SYMBOLS, in the Python part; `--list` prints it) gives each API its first iOS, macOS,
# tvOS and watchOS versions as Apple's documentation states them (the developer.apple.com symbol page
# named in its last column), each one looked up there, none guessed. Where an API is back-deployed
# (@backDeployed), the documented version is the back-deployed one: AsyncStream.makeStream,
# withTaskCancellationHandler(…isolation:), waitForAll and Date.now work below the OS release that
# introduced them, and Span, RawSpan and MutableSpan are documented from iOS 12.2. Not in the table,
# because no Apple page for them was found or their version depends on the receiver:
# Task.sleep(nanoseconds:), RegexBuilder, `.span`/`.mutableSpan` (Array and InlineArray
# 26, Data 12.2), withObservationTracking (one overload 17, another 27). `.formatted(` is Date's (15);
# Duration's and DateComponents' are newer and are not told apart. `import Synchronization` and
# `import Observation` are not flagged (an import cannot carry @available); what is used from them is.
#
# What is scanned: the code of every .swift file under the sources folder. Comments are ignored, and so
# are string literals (the code inside `\(…)` interpolations is kept). The extended regex literal `#/…/#`
# is recognised; a bare `/…/` regex literal is not (it looks like division). Code in `#if` branches that
# Apple platforms do not compile (`#if canImport(FoundationNetworking)` …) is checked all the same.
#
# The annotation rule: a use of a symbol newer than the floor passes when `@available(…)` or
# `#available(…)` names, for every platform on which the symbol is newer than the floor, a version at or
# above the symbol's there, and the annotation covers the use:
#   - any annotation covers its own line(s) and the line after it;
#   - `@available` on a func, init, subscript, deinit, type, extension or protocol also covers its body,
#     up to the closing brace; on a computed `var` whose `{` is on the same line, that block;
#   - `if #available(…)` covers the block that follows (not its `else`);
#   - `guard #available(…)` covers the rest of the block that holds the guard.
# Version entries are read as `iOS 17`, `macOS 14.0` or `iOS, introduced: 17.0`; `*`, `unavailable` and
# other platforms are ignored. Nested annotations count together (the highest version per platform wins).
#
# Exit status: 0 when nothing is newer than the floor (one summary line), 1 when something is (one
# line per use: file:line, the symbol, its first versions and the floor), 2 on a usage or manifest error.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
package="$root/Package.swift"
sources=""
list=0

usage() {
    sed -n '6,10p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --sources)
            [ $# -ge 2 ] || usage
            sources="$2"
            shift 2
            ;;
        --package)
            [ $# -ge 2 ] || usage
            package="$2"
            shift 2
            ;;
        --list)
            list=1
            shift
            ;;
        -h | --help) usage ;;
        *)
            echo "check-platform-floor: unknown argument: $1" >&2
            usage
            ;;
    esac
done

if [ -z "$sources" ]; then
    sources="$(dirname "$package")/Sources"
fi
if [ ! -f "$package" ]; then
    echo "check-platform-floor: no manifest at $package" >&2
    exit 2
fi
if [ "$list" = 0 ] && [ ! -d "$sources" ]; then
    echo "check-platform-floor: no sources folder at $sources" >&2
    exit 2
fi

exec python3 - "$package" "$sources" "$list" <<'PYTHON'
import bisect
import os
import re
import sys

PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS")

# (label, pattern, iOS, macOS, tvOS, watchOS, the Apple documentation page that states the versions)
SYMBOLS = [
    ("Duration", r"\bDuration\b", "16", "13", "16", "9", "swift/duration"),
    ("DurationProtocol", r"\bDurationProtocol\b", "16", "13", "16", "9", "swift/durationprotocol"),
    ("ContinuousClock", r"\bContinuousClock\b", "16", "13", "16", "9", "swift/continuousclock"),
    ("SuspendingClock", r"\bSuspendingClock\b", "16", "13", "16", "9", "swift/suspendingclock"),
    ("Clock", r"\bClock\b", "16", "13", "16", "9", "swift/clock"),
    ("InstantProtocol", r"\bInstantProtocol\b", "16", "13", "16", "9", "swift/instantprotocol/duration"),
    ("sleep(for:)", r"\bsleep\(\s*for:", "16", "13", "16", "9", "swift/task/sleep(for:tolerance:clock:)"),
    ("sleep(until:)", r"\bsleep\(\s*until:", "16", "13", "16", "9", "swift/task/sleep(until:tolerance:clock:)"),
    ("Mutex", r"\bMutex\b", "18", "15", "18", "11", "synchronization/mutex"),
    ("Atomic", r"\bAtomic\b", "18", "15", "18", "11", "synchronization/atomic"),
    ("AtomicLazyReference", r"\bAtomicLazyReference\b", "18", "15", "18", "11", "synchronization"),
    ("OSAllocatedUnfairLock", r"\bOSAllocatedUnfairLock\b", "16", "13", "16", "9", "os/osallocatedunfairlock"),
    ("os_unfair_lock", r"\bos_unfair_lock\w*", "10", "10.12", "10", "3", "os/os_unfair_lock"),
    ("withDiscardingTaskGroup", r"\bwithDiscardingTaskGroup\b", "17", "14", "17", "10",
     "swift/withdiscardingtaskgroup(returning:isolation:body:)"),
    ("withThrowingDiscardingTaskGroup", r"\bwithThrowingDiscardingTaskGroup\b", "17", "14", "17", "10",
     "swift/withthrowingdiscardingtaskgroup(returning:isolation:body:)"),
    ("DiscardingTaskGroup", r"\b(?:Throwing)?DiscardingTaskGroup\b", "17", "14", "17", "10",
     "swift/discardingtaskgroup"),
    ("String(validating:as:)", r"\bString\(\s*validating:", "18", "15", "18", "11",
     "swift/string/init(validating:as:)"),
    ("@Observable", r"@Observable\b", "17", "14", "17", "10", "observation/observable()"),
    ("ObservationTracking", r"\bObservationTracking\b", "17", "14", "17", "10", "observation/observationtracking"),
    ("InlineArray", r"\bInlineArray\b", "26", "26", "26", "26", "swift/inlinearray"),
    ("[N of T] (InlineArray)", r"\[\s*(?:\d+|_)\s+of\s+\w", "26", "26", "26", "26", "swift/inlinearray"),
    ("Span", r"\bSpan\b", "12.2", "10.14.4", "12.2", "5.2", "swift/span"),
    ("RawSpan", r"\bRawSpan\b", "12.2", "10.14.4", "12.2", "5.2", "swift/rawspan"),
    ("MutableSpan", r"\bMutableSpan\b", "12.2", "10.14.4", "12.2", "5.2", "swift/mutablespan"),
    ("Task.immediate", r"\bTask(?:<[^>\n]*>)?\s*\.immediate(?:Detached)?\b", "26", "26", "26", "26",
     "swift/task/immediate(name:priority:executorpreference:operation:)"),
    ("addImmediateTask", r"\baddImmediateTask\w*", "26", "26", "26", "26",
     "swift/throwingtaskgroup/addimmediatetaskunlesscancelled(name:priority:executorpreference:operation:)"),
    ("URL(filePath:)", r"\bURL\(\s*filePath:", "16", "13", "16", "9",
     "foundation/url/init(filepath:directoryhint:relativeto:)"),
    ("appending(path:)", r"\.appending\(\s*path:", "16", "13", "16", "9",
     "foundation/url/appending(path:directoryhint:)"),
    ("append(path:)", r"\.append\(\s*path:", "16", "13", "16", "9", "foundation/url/append(path:directoryhint:)"),
    ("URL.DirectoryHint", r"\bDirectoryHint\b|\bdirectoryHint:", "16", "13", "16", "9",
     "foundation/url/directoryhint"),
    ("path(percentEncoded:)", r"\bpath\(\s*percentEncoded:", "16", "13", "16", "9",
     "foundation/url/path(percentencoded:)"),
    ("URLSessionWebSocketTask", r"\bURLSessionWebSocketTask\b", "13", "10.15", "13", "6",
     "foundation/urlsessionwebsockettask"),
    ("makeStream (back-deployed)", r"\bmakeStream\(", "13", "10.15", "13", "6",
     "swift/asyncstream/makestream(of:bufferingpolicy:)"),
    ("Regex", r"\bRegex\b", "16", "13", "16", "9", "swift/regex"),
    ("#/…/# regex literal", r"#+/", "16", "13", "16", "9", "swift/regex"),
    (".formatted( (Date)", r"\.formatted\(", "15", "12", "15", "8", "foundation/date/formatted(_:)"),
    ("FormatStyle", r"\bFormatStyle\b", "15", "12", "15", "8", "foundation/formatstyle"),
    ("Date.ISO8601FormatStyle", r"\bISO8601FormatStyle\b", "15", "12", "15", "8",
     "foundation/date/iso8601formatstyle"),
    ("Date.now (back-deployed)", r"\bDate\.now\b", "8", "10.10", "9", "2", "foundation/date/now"),
    ("waitForAll", r"\.waitForAll\(", "13", "10.15", "13", "6", "swift/taskgroup/waitforall()"),
    ("withTaskCancellationHandler", r"\bwithTaskCancellationHandler\b", "13", "10.15", "13", "6",
     "swift/withtaskcancellationhandler(operation:oncancel:isolation:)"),
    ("SecTrustCopyCertificateChain", r"\bSecTrustCopyCertificateChain\b", "15", "12", "15", "8",
     "security/sectrustcopycertificatechain(_:)"),
    ("SecTrustEvaluateWithError", r"\bSecTrustEvaluateWithError\b", "12", "10.14", "12", "5",
     "security/sectrustevaluatewitherror(_:_:)"),
    ("SecCertificateCopyKey", r"\bSecCertificateCopyKey\b", "12", "10.14", "12", "5",
     "security/seccertificatecopykey(_:)"),
    ("SecKeyCopyExternalRepresentation", r"\bSecKeyCopyExternalRepresentation\b", "10", "10.12", "10", "3",
     "security/seckeycopyexternalrepresentation(_:_:)"),
    ("SecPKCS12Import", r"\bSecPKCS12Import\b", "2", "10.6", "9", "2", "security/secpkcs12import(_:_:_:)"),
    ("URLCredential(identity:)", r"\bURLCredential\(\s*identity:", "3", "10.6", "9", "2",
     "foundation/urlcredential/init(identity:certificates:persistence:)"),
]


def needle(pattern):
    """A plain substring every match contains (to skip files quickly), or "" when there is none."""
    mandatory = re.sub(r"\(\?:[^()]*\)\?", "", pattern)  # drop optional groups
    if "|" in mandatory:
        return ""
    runs = re.findall(r"[A-Za-z_]{3,}", re.sub(r"\\[bBsSwWdD]", " ", mandatory))
    return max(runs, key=len, default="")


def version(text):
    return tuple(int(part) for part in text.split("."))


def show(v):
    return ".".join(str(part) for part in v) + (".0" if len(v) == 1 else "")


def read_floor(path):
    with open(path, encoding="utf-8") as handle:
        lines = [line for line in handle if "platforms:" in line and not line.lstrip().startswith("//")]
    if len(lines) != 1:
        sys.exit(f"check-platform-floor: expected one `platforms:` line in {path}, found {len(lines)}")
    floor = {}
    for name, major, minor in re.findall(r"\.(iOS|macOS|tvOS|watchOS)\(\s*\.v(\d+)(?:_(\d+))?\s*\)", lines[0]):
        floor[name] = (int(major), int(minor)) if minor else (int(major),)
    missing = [p for p in PLATFORMS if p not in floor]
    if missing:
        sys.exit(f"check-platform-floor: the `platforms:` line of {path} names no {', '.join(missing)}")
    return floor


CODE_STOPS = re.compile(r'//|/\*|[#"]')
INTERPOLATION_STOPS = re.compile(r'//|/\*|[#"()]')
BLOCK_STOPS = re.compile(r"/\*|\*/")
STRING_STOPS = re.compile(r'[\\"\n]')
NOT_NEWLINE = re.compile(r"[^\n]")


def strip(src):
    """The code of a Swift file: comments and string contents blanked, lines kept in place."""
    out = list(src)
    n = len(src)

    def blank(a, b):
        b = min(b, n)
        if a < b:
            out[a:b] = NOT_NEWLINE.sub(" ", src[a:b])

    stack = [["code", None]]  # ["code", parens open in an interpolation] or ["string", hashes, multiline]
    i = 0
    while i < n:
        top = stack[-1]
        if top[0] == "code":
            m = (CODE_STOPS if top[1] is None else INTERPOLATION_STOPS).search(src, i)
            if not m:
                break
            i = m.start()
            c = src[i]
            if src.startswith("//", i):
                j = src.find("\n", i)
                j = n if j < 0 else j
                blank(i, j)
                i = j
                continue
            if src.startswith("/*", i):
                depth, j = 1, i + 2
                while j < n and depth:
                    m = BLOCK_STOPS.search(src, j)
                    if not m:
                        j = n
                        break
                    depth += 1 if m.group() == "/*" else -1
                    j = m.end()
                blank(i, j)
                i = j
                continue
            if c in "#\"":
                j = i
                while j < n and src[j] == "#":
                    j += 1
                hashes = j - i
                if j < n and src[j] == '"':
                    multi = src.startswith('"""', j)
                    start = j + (3 if multi else 1)
                    blank(i, start)
                    stack.append(["string", hashes, multi])
                    i = start
                    continue
                if hashes and j < n and src[j] == "/":
                    end = src.find("/" + "#" * hashes, j + 1)
                    end = n if end < 0 else end + 1 + hashes
                    blank(j + 1, end)  # keep the `#/` that marks the literal
                    i = end
                    continue
                i = j if hashes else i + 1
                continue
            if c == "(":
                top[1] += 1
            elif c == ")":
                top[1] -= 1
                if top[1] == 0:
                    out[i] = " "
                    stack.pop()
            i += 1
            continue
        _, hashes, multi = top
        m = STRING_STOPS.search(src, i)
        if not m:
            blank(i, n)
            break
        blank(i, m.start())
        i = m.start()
        c = src[i]
        if c == "\\" and src.startswith("#" * hashes, i + 1):
            k = i + 1 + hashes
            if k < n and src[k] == "(":
                blank(i, k + 1)
                stack.append(["code", 1])
                i = k + 1
                continue
            blank(i, k + 1)
            i = k + 1
            continue
        closing = ('"""' if multi else '"') + "#" * hashes
        if src.startswith(closing, i):
            blank(i, i + len(closing))
            stack.pop()
            i += len(closing)
            continue
        if c == "\n" and not multi:
            stack.pop()  # an unterminated literal; carry on with code
        elif c != "\n":
            out[i] = " "
        i += 1
    return "".join(out)


def matching(code, start, opening, closing):
    """The index of the bracket that closes the one at `start`, or len(code)."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] == opening:
            depth += 1
        elif code[k] == closing:
            depth -= 1
            if depth == 0:
                return k
    return len(code)


def annotation_versions(arguments):
    versions = {}
    pieces = [p.strip() for p in arguments.split(",")]
    for piece in pieces:
        m = re.fullmatch(r"(iOS|macOS|tvOS|watchOS)\s+(\d+(?:\.\d+)*)", piece)
        if m:
            versions[m.group(1)] = version(m.group(2))
    if pieces and pieces[0] in PLATFORMS:
        for piece in pieces[1:]:
            m = re.fullmatch(r"introduced:\s*(\d+(?:\.\d+)*)", piece)
            if m:
                versions[pieces[0]] = version(m.group(1))
    return versions


MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "static", "final", "nonisolated",
    "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned",
    "dynamic", "indirect", "consuming", "borrowing", "distributed",
}
BODIED = {"func", "init", "subscript", "deinit", "class", "struct", "enum", "extension", "actor", "protocol"}


def annotations(code, line_of):
    """(first line, last line, {platform: version}) for each @available / #available in the code."""
    found = []
    for m in re.finditer(r"([@#])available\s*\(", code):
        open_paren = m.end() - 1
        close_paren = matching(code, open_paren, "(", ")")
        versions = annotation_versions(code[open_paren + 1:close_paren])
        if not versions:
            continue
        first = line_of(m.start())
        last = line_of(close_paren) + 1
        body = None
        if m.group(1) == "#":
            line_start = code.rfind("\n", 0, m.start()) + 1
            if re.search(r"\bguard\b", code[line_start:m.start()]):
                # the rest of the block that holds the guard
                depth = 0
                for k in range(m.start(), len(code)):
                    if code[k] == "{":
                        depth += 1
                    elif code[k] == "}":
                        if depth == 0:
                            body = k
                            break
                        depth -= 1
                else:
                    body = len(code)
            else:
                brace = code.find("{", close_paren)
                if brace >= 0:
                    body = matching(code, brace, "{", "}")
        else:
            k = close_paren + 1
            word = None
            while True:
                w = re.compile(r"\s*(@\w+|\w+)").match(code, k)
                if not w:
                    break
                token, k = w.group(1), w.end()
                if token.startswith("@") or token in MODIFIERS:
                    p = re.compile(r"\s*\(").match(code, k)
                    if p:  # @MainActor(…), public(set)
                        k = matching(code, p.end() - 1, "(", ")") + 1
                    continue
                if token == "class" and re.compile(r"\s*(func|var|let|subscript)\b").match(code, k):
                    continue
                word = token
                break
            if word in BODIED:
                brace = code.find("{", k)
                if brace >= 0:
                    body = matching(code, brace, "{", "}")
            elif word == "var":
                line_end = code.find("\n", k)
                line_end = len(code) if line_end < 0 else line_end
                brace = code.find("{", k, line_end)
                if brace >= 0:
                    body = matching(code, brace, "{", "}")
        if body is not None:
            last = max(last, line_of(body))
        found.append((first, last, versions))
    return found


def main():
    package, sources, list_only = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
    floor = read_floor(package)
    table = [
        (label, re.compile(pattern), needle(pattern), dict(zip(PLATFORMS, (version(v) for v in versions))), page)
        for label, pattern, *versions, page in SYMBOLS
    ]
    floor_text = ", ".join(f"{p} {show(floor[p])}" for p in PLATFORMS)
    if list_only:
        print(f"floor: {floor_text}")
        for label, _, _, first, page in table:
            newer = any(first[p] > floor[p] for p in PLATFORMS)
            versions = ", ".join(f"{p} {show(first[p])}" for p in PLATFORMS)
            print(f"{label}: {versions}{'  (newer than the floor)' if newer else ''}  [{page}]")
        return 0

    files = sorted(
        os.path.join(folder, name)
        for folder, _, names in os.walk(sources)
        for name in names
        if name.endswith(".swift")
    )
    problems, uses = [], 0
    for path in files:
        with open(path, encoding="utf-8") as handle:
            code = strip(handle.read())
        starts = [0] + [m.end() for m in re.finditer("\n", code)]

        def line_of(position):
            return bisect.bisect_right(starts, position)

        covering = None
        for label, pattern, literal, first, _ in table:
            if literal and literal not in code:
                continue
            needed = [p for p in PLATFORMS if first[p] > floor[p]]
            seen = set()
            for m in pattern.finditer(code):
                line = line_of(m.start())
                if line in seen:
                    continue
                seen.add(line)
                uses += 1
                if not needed:
                    continue
                if covering is None:
                    covering = annotations(code, line_of)
                best = {}
                for low, high, versions in covering:
                    if low <= line <= high:
                        for p, v in versions.items():
                            best[p] = max(best.get(p, ()), v)
                if all(best.get(p, ()) >= first[p] for p in needed):
                    continue
                versions = ", ".join(f"{p} {show(first[p])}" for p in PLATFORMS)
                shown = os.path.relpath(path)
                shown = path if shown.startswith("..") else shown
                problems.append(f"{shown}:{line}: {label} needs {versions}; the floor is {floor_text}")

    for problem in problems:
        print(problem)
    if problems:
        print(
            f"check-platform-floor: {len(problems)} use(s) newer than the floor ({floor_text}) "
            f"without an @available/#available that covers them",
            file=sys.stderr,
        )
        return 1
    shown_sources = os.path.relpath(sources)
    shown_sources = sources if shown_sources.startswith("..") else shown_sources
    print(
        f"check-platform-floor: OK: {len(table)} symbols checked ({uses} uses) in {len(files)} files "
        f"of {shown_sources}; nothing newer than {floor_text}"
    )
    return 0


sys.exit(main())
PYTHON
