import Foundation

/// What a plugin knows about the request it is called for.
public struct RequestContext: Sendable {
    /// Unique among the requests of one router.
    public let id: UInt64
    /// The endpoint being requested.
    public let target: any EndPointType
    /// When the request was started (`router.request` was called).
    public let startedAt: Date
    /// How many times the request has been sent so far, counting retries and replays; 0 before
    /// the first send.
    public internal(set) var attempt: Int
    /// What the router treats as secret: its ``Router/redaction`` with every plugin's
    /// ``PluginType/redaction``. A plugin that shows requests hides what this names.
    public let redaction: Redaction
    /// How the request went, for ``PluginType/didReceive(_:context:)`` and
    /// ``PluginType/process(_:context:)``: set when the outcome is known, `nil` before.
    public internal(set) var metrics: RequestMetrics?

    /// Seconds since the request was started.
    public var elapsed: TimeInterval { Date().timeIntervalSince(startedAt) }
}
