// The movie-db executable: all logic is in MovieDBCommand (library MovieDB), so tests run it
// in-process; this file only connects it to the process.
import Foundation
import MovieDB

let command = MovieDBCommand(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment)
// Top-level await: the main thread is not blocked, and no semaphore is needed.
exit(await command.run())
