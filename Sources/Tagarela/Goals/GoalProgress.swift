import Foundation
import GRDB

/// A goal's state, computed from the record each time it is shown and never stored.
enum GoalStatus: String, Codable, Sendable, CaseIterable {
    case notStarted, onTrack, behind, met, missed
}

/// One goal as the patient's overview, the clinician's worklist and the progress report see it:
/// what was aimed at, what the record measures today, and the status that follows.
struct GoalProgress: Sendable, Equatable {
    let goalId: Int64
    let patientId: Int64
    /// The goal in the clinician's words ("Asks for help with a 3-word sentence").
    let title: String
    let status: GoalStatus
    /// What the record measures for the current period, in the goal's unit; nil when nothing was measured.
    let measured: Double?
    let target: Double
    /// The catalogue key of the unit ("goal_unit_taps_per_week"), so each reader sees it in their language.
    let unitKey: String
    /// The ISO date the clinician set to review the goal.
    let reviewDate: String?
}

enum GoalQueries {
    /// The open goals of these patients with their measure and status on `today` (an ISO date in the
    /// clinic's time zone), keyed by patient. Patients without goals are absent.
    static func progress(ofPatients patientIds: [Int64], today: String, _ db: Database) throws -> [Int64: [GoalProgress]] {
        [:]
    }
}
