import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure of the loopback server or of an exchange with it.
public struct BenchServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    /// A failure described by `description`.
    public init(description: String) {
        self.description = description
    }
}

/// The `BenchServer` executable running in a child process, listening on 127.0.0.1.
///
/// The server is found next to the running benchmark executable (the benchmark targets depend on it, so
/// it is built into the same products folder), or at the path in `COREAPI_BENCH_SERVER`. ``stop()``
/// ends it by its process ID and reaps it; as a safety net the server also exits when the pipe on its
/// standard input closes, which happens when this process ends in any way.
public final class BenchServerProcess: Sendable {
    /// The server's process ID.
    public let pid: pid_t
    /// The port the server listens on.
    public let port: Int
    /// The write end of the server's standard input; closing it makes the server exit.
    private let control: Int32
    /// The read end of the server's standard output.
    private let output: Int32
    /// Whether ``stop()`` ran.
    private let isStopped = Mutex(false)

    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A started server.
    private init(pid: pid_t, port: Int, control: Int32, output: Int32) {
        self.pid = pid
        self.port = port
        self.control = control
        self.output = output
    }

    deinit {
        stop()
    }

    /// Starts a server and waits until it reports its port.
    public static func start() throws -> BenchServerProcess {
        let path = try executablePath()
        let toServer = try makePipe()
        let fromServer = try makePipe()
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toServer.read, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromServer.write, STDOUT_FILENO)
        // Threads of the calling process may block signals; the server starts with none blocked and the
        // default actions, so `SIGTERM` ends it.
        #if canImport(Glibc)
            var attributes = posix_spawnattr_t()
        #else
            var attributes: posix_spawnattr_t?
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] {
            sigaddset(&defaultSignals, signal)
        }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // The malloc statistics library preloaded into benchmarks is of no use to the server.
        let environment = ProcessInfo.processInfo.environment
            .filter { $0.key != "LD_PRELOAD" && $0.key != "DYLD_INSERT_LIBRARIES" }
            .map { "\($0.key)=\($0.value)" }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(toServer.read)
        close(fromServer.write)
        guard status == 0 else {
            close(toServer.write)
            close(fromServer.read)
            throw BenchServerError(description: "posix_spawn \(path) failed: \(String(cString: strerror(status)))")
        }
        guard let port = readPort(from: fromServer.read) else {
            terminate(pid)
            close(toServer.write)
            close(fromServer.read)
            throw BenchServerError(description: "\(path) did not report its port")
        }
        return BenchServerProcess(pid: pid, port: port, control: toServer.write, output: fromServer.read)
    }

    /// Ends the server by its process ID (`SIGTERM`) and waits for it to exit. Calling it again does nothing.
    public func stop() {
        let isFirst = isStopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard isFirst else { return }
        Self.terminate(pid)
        close(control)
        close(output)
    }

    /// Sends `SIGTERM` to `pid` and reaps it; `SIGKILL` follows if it has not exited after five seconds.
    private static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { return }
            usleep(2000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// The path of the `BenchServer` executable.
    private static func executablePath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["COREAPI_BENCH_SERVER"], !path.isEmpty {
            return path
        }
        let own = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
            .resolvingSymlinksInPath()
        let path = own.deletingLastPathComponent().appendingPathComponent("BenchServer").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchServerError(
                description: "no BenchServer executable at \(path); build the package or set COREAPI_BENCH_SERVER"
            )
        }
        return path
    }

    /// A pipe whose ends are closed in child processes unless passed on explicitly.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw BenchServerError(description: "pipe failed: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        return (ends[0], ends[1])
    }

    /// Reads the first line the server prints, its port, waiting at most ten seconds.
    private static func readPort(from descriptor: Int32) -> Int? {
        var line: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 200) >= 0 || errno == EINTR else { return nil }
            guard poller.revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            if count == 0 { return nil }
            if count < 0 { continue }
            if byte == UInt8(ascii: "\n") {
                return Int(String(decoding: line, as: UTF8.self))
            }
            line.append(byte)
        }
        return nil
    }
}
