import Foundation
#if canImport(Glibc)
import Glibc
private typealias FileActions = posix_spawn_file_actions_t
#elseif canImport(Darwin)
import Darwin
private typealias FileActions = posix_spawn_file_actions_t?
#endif

/// A child process started with `posix_spawn`, not Foundation's `Process`.
///
/// `Process.run()` in the Swift 6.3.1 toolchain's Foundation crashes now and then: it reads
/// `/proc/self/fd` by copying each entry's whole 256-byte `d_name`, which reads past the end
/// of glibc's buffer when an entry sits at its tail before an unmapped page
/// (swift-corelibs-foundation#5472, merged 2026-05). The test process keeps a CurlTransport
/// thread and its descriptors per test, so the directory is long: the main phase crashed in
/// `Process.run()` under `NumericEdgeTests` (2026-11-27). `FileManager` reads the directory
/// safely, and the child gets the same descriptors Foundation would give it: the output file
/// as standard output and error, `/dev/null` as input, nothing else.
struct SpawnedChild {
    let pid: pid_t

    /// How the child ended: its exit status, or the signal that ended it.
    struct Ending {
        let status: Int32
        let bySignal: Bool
    }

    static func start(executable: String, arguments: [String], environment: [String: String], output: FileHandle) throws
        -> SpawnedChild
    {
        var actions = FileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let outputFD = output.fileDescriptor
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFD, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, outputFD, STDERR_FILENO)
        // A descriptor closed meanwhile is ignored by glibc's close action.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            if let fd = Int32(name), fd > STDERR_FILENO { posix_spawn_file_actions_addclose(&actions, fd) }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        return SpawnedChild(pid: pid)
    }

    /// How the child ended, or `nil` while it runs.
    func ending() -> Ending? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return Self.ending(status)
    }

    /// Kills the child (SIGKILL: a hung child may ignore SIGTERM) and waits for its end.
    func kill() -> Ending {
        sendKill(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return Self.ending(status)
    }

    /// `WIFSIGNALED`, `WTERMSIG` and `WEXITSTATUS`, which Swift does not import.
    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        if signal != 0 && signal != 0x7f { return Ending(status: signal, bySignal: true) }
        return Ending(status: (status >> 8) & 0xff, bySignal: false)
    }
}

/// `kill(2)` with SIGKILL, outside ``SpawnedChild``, whose own `kill()` hides the name.
private func sendKill(_ pid: pid_t) {
    _ = kill(pid, SIGKILL)
}
