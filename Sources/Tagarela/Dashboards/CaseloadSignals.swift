import Synchronization

/// The worklist's reading of each of a clinician's patients, kept between loads of their worklist. A
/// load reads every patient's number of changes (`PatientChanges`) and reads the signals again only for
/// the patients whose number moved: reading every patient's signals was about 70 % of a worklist of 500
/// (eight index lookups per patient), and between two loads a few of them change.
///
/// A reading holds for one minute of one day and one set of specialties: overdue meals count from the
/// time of day, and the meals and tutor notes from windows that end now. Goals behind are not kept:
/// they are measured on every load (`GoalQueries.behindCounts`).
final class CaseloadSignals: Sendable {
    /// One patient as the worklist reads them, goals aside.
    struct Reading: Sendable {
        let id: Int64
        let name: String
        /// `WorklistRules.weightSQL` with no goal behind.
        let weight: Int
        /// With `goalsBehind` 0.
        let signals: WorklistRules.Signals
        let fulfilled: Int
        let notFulfilled: Int
    }

    /// What a reading depends on besides the record.
    struct Moment: Equatable, Sendable {
        let today: String
        /// "HH:MM".
        let minute: String
        let scope: WorklistRules.Scope
    }

    private struct Caseload {
        let moment: Moment
        let readings: [Int64: (seq: Int64, reading: Reading)]
    }

    /// Tables a kept reading reads whose changes no `patientChange` trigger counts, each with why the
    /// reading stays true. `CacheCoverageTests` records what a reading touches and allows these and the
    /// triggers' tables only.
    static let readButNotCounted: [String: String] = [
        "clinicianPatient": "who the clinician sees is read again on every load (PatientChanges.counts): a reading is used only for a patient still seen",
        "goal": "joined only to reach its notes (goalNote, counted); a goal never moves to another patient and its deletion deletes its notes",
    ]

    /// Caseloads under their clinician's id; a generation holds `patientsPerGeneration` readings.
    private let caseloads: Mutex<TwoGenerations<Int64, Caseload>>

    init(patientsPerGeneration: Int = 20_000) {
        caseloads = Mutex(TwoGenerations(limit: patientsPerGeneration))
    }

    /// The readings of the patients of `counts`, in their order: each kept one whose number of changes
    /// is the same, the others from `read`, given their ids (nil: every patient, on a first load).
    func readings(clinician: Int64, at moment: Moment, counts: [(patientId: Int64, seq: Int64)],
                  read: ([Int64]?) throws -> [Reading]) throws -> [Reading] {
        let key = clinician
        let kept = caseloads.withLock { $0.value(for: key) }
            .flatMap { $0.moment == moment ? $0.readings : nil } ?? [:]
        let stale = counts.filter { kept[$0.patientId]?.seq != $0.seq }.map(\.patientId)
        guard !stale.isEmpty else { return counts.map { kept[$0.patientId]!.reading } }

        var fresh: [Int64: Reading] = [:]
        for reading in try read(stale.count == counts.count ? nil : stale) { fresh[reading.id] = reading }
        var readings: [Reading] = []
        var caseload: [Int64: (seq: Int64, reading: Reading)] = [:]
        readings.reserveCapacity(counts.count)
        caseload.reserveCapacity(counts.count)
        for (patientId, seq) in counts {
            // `read` runs in the transaction that read the numbers: every patient asked for is there.
            guard let reading = fresh[patientId] ?? kept[patientId].map(\.reading) else { continue }
            readings.append(reading)
            caseload[patientId] = (seq, reading)
        }
        caseloads.withLock { $0.insert(Caseload(moment: moment, readings: caseload), for: key, cost: caseload.count) }
        return readings
    }

    /// How many caseloads are kept (tests).
    var count: Int { caseloads.withLock { $0.count } }
}
