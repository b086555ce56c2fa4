import Foundation

/// What a plugin knows about the request it is called for.
public struct RequestContext: Sendable {
    /// What is fixed when the request starts, held by reference: a context travels with its
    /// request through every stage and is copied at each, and with these inline each copy was
    /// seven times as long and ran the endpoint's own copying (`CopyCostTests`).
    private final class Origin: Sendable {
        let id: UInt64
        let target: any EndPointType
        let startedAt: Date
        let redaction: Redaction
        let requestURL: URL?

        init(id: UInt64, target: any EndPointType, startedAt: Date, redaction: Redaction, requestURL: URL?) {
            self.id = id
            self.target = target
            self.startedAt = startedAt
            self.redaction = redaction
            self.requestURL = requestURL
        }
    }

    private let origin: Origin

    /// Unique among the requests of one router.
    public var id: UInt64 { origin.id }
    /// The endpoint being requested.
    public var target: any EndPointType { origin.target }
    /// When the request was started (`router.request` was called).
    public var startedAt: Date { origin.startedAt }
    /// How many times the request has been sent so far, counting retries and replays; 0 before
    /// the first send.
    public internal(set) var attempt: Int
    /// What the router treats as secret: its ``Router/redaction`` with every plugin's
    /// ``PluginType/redaction``. A plugin that shows requests hides what this names.
    public var redaction: Redaction { origin.redaction }
    /// How the request went, for ``PluginType/didReceive(_:context:)`` and
    /// ``PluginType/process(_:context:)``: set when the outcome is known, `nil` before.
    public var metrics: RequestMetrics? { delivery?.metrics ?? nil }
    /// ``metrics``, in the box shared with the delivered ``Response``.
    var delivery: Response.Delivery?

    /// The URL the router built for the endpoint (its base URL after the router's mapping),
    /// before any plugin changed it; `nil` when the request could not be built, or for a
    /// context made in a test.
    var requestURL: URL? { origin.requestURL }

    init(id: UInt64, target: any EndPointType, startedAt: Date, attempt: Int, redaction: Redaction, requestURL: URL? = nil) {
        origin = Origin(id: id, target: target, startedAt: startedAt, redaction: redaction, requestURL: requestURL)
        self.attempt = attempt
    }

    /// Seconds since the request was started.
    public var elapsed: TimeInterval { Date().timeIntervalSince(startedAt) }
}
