import Dispatch
import Foundation

extension DispatchGroup {
    /// Whether every block that entered the group has left it within `seconds`, waited for on a
    /// thread of its own. A test that waits with `wait(timeout:)` holds one of the cooperative
    /// pool's threads (two on a 2-core machine) for as long as its requests take, and every
    /// other test of the process, its requests' stages included, gets only the other one: in the
    /// parallel phase of `Scripts/test` a request of another suite then missed its 10 s deadline.
    public func completes(within seconds: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.wait(timeout: .now() + seconds) == .success) }.start()
        }
    }
}
