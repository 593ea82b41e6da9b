import Foundation

/// Plain values to FHIR R4 JSON. Pure: the same record gives the same bytes. Every resource of an
/// export gets a RESTful `fullUrl` under `base` (`https://clinic/fhir/r4/Observation/weight-12`) and
/// refers to the others by `Type/id`, as the read-only API serves them.
struct FHIRMapper {
    let base: String
    let timeZone: TimeZone

    typealias J = FHIRJSON

    /// A `collection` Bundle of the whole record: Patient, the care team, body composition and weights,
    /// goals under a CarePlan, meals as NutritionOrders, check-ins, board use and eduCAT as Observations.
    func bundle(_ record: FHIRRecord) -> J {
        let resources = resources(record)
        return .object([
            "resourceType": .string("Bundle"),
            "id": .string("tagarela-\(record.patient.id)-\(Int(record.exportedAt.timeIntervalSince1970))"),
            "meta": .object(["lastUpdated": .string(instant(record.exportedAt))]),
            "type": .string("collection"),
            "timestamp": .string(instant(record.exportedAt)),
            "entry": .array(resources.map { resource in
                .object(["fullUrl": .string(fullURL(of: resource)), "resource": resource])
            }),
        ])
    }

    /// Every Observation of the record (the API's search reads these).
    func observations(_ record: FHIRRecord) -> [J] {
        resources(record).filter { Self.type(of: $0) == "Observation" }
    }

    static func type(of resource: J) -> String? {
        guard case .members(let pairs) = resource, case .string(let type)? = pairs.first(where: { $0.0 == "resourceType" })?.1 else { return nil }
        return type
    }

    func resources(_ record: FHIRRecord) -> [J] {
        var resources: [J] = [patient(record.patient)]
        resources += record.people.map { person($0, patientId: record.patient.id) }
        if !record.people.isEmpty { resources.append(careTeam(record)) }
        for evaluation in record.evaluations { resources += observations(of: evaluation, patientId: record.patient.id, record: record) }
        resources += record.weights.map { weight($0, patientId: record.patient.id) }
        resources += record.imported.compactMap { imported($0) }
        resources += record.goals.map { goal($0, record: record) }
        resources += record.meals.map { nutritionOrder($0, record: record) }
        if !record.goals.isEmpty || !record.meals.isEmpty { resources.append(carePlan(record)) }
        resources += record.meals.compactMap { checkIn($0, patientId: record.patient.id) }
        resources += record.taps.map { dayCount($0, FHIRCodes.dailyTaps, id: "taps", patientId: record.patient.id) }
        resources += record.sentences.map { dayCount($0, FHIRCodes.dailySentences, id: "sentences", patientId: record.patient.id) }
        resources += record.games.map { game($0, patientId: record.patient.id) }
        return resources
    }

    // MARK: - People

    func patient(_ patient: FHIRRecord.Patient) -> J {
        .object([
            "resourceType": .string("Patient"),
            "id": .string(String(patient.id)),
            "identifier": .array([identifier(FHIRCodes.patientIdentifier(base: base), String(patient.id))]),
            "active": .bool(true),
            "name": .array([.object(["text": .string(patient.name)])]),
            "gender": patient.sex.map { .string($0 == "male" ? "male" : "female") },
            "birthDate": patient.birthDate.map(J.string),
        ])
    }

    /// Clinicians and trainers are Practitioners; a tutor (parent, teacher, carer) is a RelatedPerson of this patient.
    func person(_ person: FHIRRecord.Person, patientId: Int64) -> J {
        switch person.kind {
        case .clinician, .trainer:
            return .object([
                "resourceType": .string("Practitioner"),
                "id": .string(String(person.id)),
                "active": .bool(true),
                "name": .array([.object(["text": .string(person.name)])]),
                "qualification": .array(person.specialties.map { specialty in
                    .object(["code": .object(["coding": .array([coding(FHIRCodes.tagarelaCode("specialty-\(specialty)", specialty))]),
                                              "text": .string(specialty)])])
                } + (person.kind == .trainer
                     ? [.object(["code": .object(["coding": .array([coding(FHIRCodes.tagarelaCode("trainer", "Trainer"))]),
                                                  "text": .string("trainer")])])] : [])),
            ])
        case .tutor:
            return .object([
                "resourceType": .string("RelatedPerson"),
                "id": .string(relatedPersonId(person.id, patientId)),
                "active": .bool(true),
                "patient": reference("Patient", String(patientId)),
                "relationship": .array([.object(["coding": .array([coding(FHIRCodes.tagarelaCode("tutor", "Tutor (parent, teacher, carer)"))]),
                                                 "text": .string("tutor")])]),
                "name": .array([.object(["text": .string(person.name)])]),
            ])
        }
    }

    func careTeam(_ record: FHIRRecord) -> J {
        .object([
            "resourceType": .string("CareTeam"),
            "id": .string("care-\(record.patient.id)"),
            "status": .string("active"),
            "subject": reference("Patient", String(record.patient.id)),
            "participant": .array(record.people.map { person in
                .object([
                    "role": .array([.object(["coding": .array([coding(FHIRCodes.tagarelaCode(person.kind.rawValue, person.kind.rawValue))])])]),
                    "member": person.kind == .tutor ? reference("RelatedPerson", relatedPersonId(person.id, record.patient.id))
                        : reference("Practitioner", String(person.id)),
                ])
            }),
        ])
    }

    // MARK: - Body composition

    /// One evaluation: weight, height, BMI, each skinfold and perimeter, and what the protocol computed
    /// from them (% fat with its method, sum, density, fat and lean mass), each derived from the skinfolds.
    func observations(of details: EvaluationDetails, patientId: Int64, record: FHIRRecord) -> [J] {
        let evaluation = details.evaluation
        let prefix = "eval-\(details.id)"
        let performer = record.people.contains { $0.id == evaluation.trainerId } ? evaluation.trainerId : nil
        func measure(_ suffix: String, _ measure: FHIRCodes.Measure, _ value: Double, digits: Int,
                     method: (code: FHIRCodes.Code, text: String)? = nil, derivedFrom: [String] = []) -> J {
            observation(id: "\(prefix)-\(suffix)", measure: measure, patientId: patientId, effective: evaluation.takenOn,
                        value: quantity(value, unit: measure.unit, digits: digits), performer: performer, method: method,
                        derivedFrom: derivedFrom)
        }
        var resources = [
            measure("weight", FHIRCodes.weight, details.weightKg, digits: 2),
            measure("height", FHIRCodes.height, Double(evaluation.heightMm) / 10, digits: 1),
            measure("bmi", FHIRCodes.bmi, details.bmi, digits: 1, derivedFrom: ["\(prefix)-weight", "\(prefix)-height"]),
        ]
        let skinfolds = details.skinfoldValues.sorted { $0.key.rawValue < $1.key.rawValue }
        for (site, millimetres) in skinfolds {
            resources.append(measure("skinfold-\(site.rawValue)", FHIRCodes.skinfold(site), millimetres, digits: 1))
        }
        for (site, centimetres) in details.perimeters.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            resources.append(measure("perimeter-\(site.rawValue)", FHIRCodes.perimeter(site), centimetres, digits: 1))
        }
        if let result = details.result {
            let method = FHIRCodes.protocolMethod(details.skinfoldProtocol, sex: details.sex)
            let used = Set(details.skinfoldProtocol.sites(for: details.sex))
            let sources = skinfolds.filter { used.contains($0.key) }.map { "\(prefix)-skinfold-\($0.key.rawValue)" }
            resources.append(measure("percent-fat", FHIRCodes.percentFat, result.percentFat, digits: 1, method: method,
                                     derivedFrom: sources + ["\(prefix)-weight"]))
            resources.append(measure("skinfold-sum", FHIRCodes.sumOfSkinfolds, result.sumOfSkinfolds, digits: 1, method: method,
                                     derivedFrom: sources))
            resources.append(measure("body-density", FHIRCodes.bodyDensity, result.density, digits: 4, method: method, derivedFrom: sources))
            resources.append(measure("fat-mass", FHIRCodes.fatMass, result.fatMassKg, digits: 2, method: method,
                                     derivedFrom: ["\(prefix)-percent-fat", "\(prefix)-weight"]))
            resources.append(measure("lean-mass", FHIRCodes.leanMass, result.leanMassKg, digits: 2, method: method,
                                     derivedFrom: ["\(prefix)-percent-fat", "\(prefix)-weight"]))
        }
        return resources
    }

    /// A weight from the nutrition weight log (typed by the patient or the nutritionist, or imported).
    func weight(_ entry: WeightEntry, patientId: Int64) -> J {
        observation(id: "weight-\(entry.id ?? 0)", measure: FHIRCodes.weight, patientId: patientId, effective: entry.measuredOn,
                    value: quantity(entry.kg, unit: "kg", digits: 3), note: "source: \(entry.source)")
    }

    /// A measurement imported from another system, with the identifier it came with (so that system
    /// knows it again) besides this clinic's.
    func imported(_ measurement: ImportedMeasurement) -> J? {
        guard let kind = FHIRImport.kinds.first(where: { $0.key == measurement.kind }), let id = measurement.id else { return nil }
        let own = "imported-\(id)"
        var identifiers = [identifier(FHIRCodes.observationIdentifier(base: base), own)]
        if let system = measurement.identifierSystem, let value = measurement.identifierValue {
            identifiers.insert(identifier(system, value), at: 0)
        }
        let category = kind.key == "weight" || kind.key == "height" || kind.key == "bmi" ? "vital-signs" : "exam"
        guard case .members(var pairs) = observation(
            id: own, measure: FHIRCodes.Measure(codes: kind.codes, unit: kind.unit, category: category), patientId: measurement.patientId,
            effective: measurement.effective, value: quantity(measurement.value, unit: kind.unit, digits: 6), note: "imported")
        else { return nil }
        if let index = pairs.firstIndex(where: { $0.0 == "identifier" }) { pairs[index].1 = .array(identifiers) }
        return .members(pairs)
    }

    // MARK: - Goals and plans

    func goal(_ goal: Goal, record: FHIRRecord) -> J {
        let measure = FHIRCodes.goalMeasure(goal)
        let lifecycle: String
        let achievement: String
        switch (goal.closedAt, goal.closedReason) {
        case (nil, _): (lifecycle, achievement) = ("active", "in-progress")
        case (_, "discontinued"): (lifecycle, achievement) = ("cancelled", "not-achieved")
        default: (lifecycle, achievement) = ("completed", "achieved")
        }
        let bound = quantity(goal.target, unit: measure.unit, digits: 2)
        let range: J = goal.goalDirection == .atLeast ? .object(["low": bound]) : .object(["high": bound])
        let author = goal.createdBy.flatMap { id in record.people.first { $0.id == id && $0.kind != .tutor } }
        return .object([
            "resourceType": .string("Goal"),
            "id": .string("goal-\(goal.id ?? 0)"),
            "lifecycleStatus": .string(lifecycle),
            "achievementStatus": .object(["coding": .array([.object(["system": .string(FHIRCodes.goalAchievement),
                                                                      "code": .string(achievement)])])]),
            "category": .array([.object(["coding": .array([coding(FHIRCodes.tagarelaCode("goal-area-\(goal.goalKind.area.rawValue)",
                                                                                        goal.goalKind.area.rawValue))])])]),
            "description": .object(["text": .string(goal.title)]),
            "subject": reference("Patient", String(goal.patientId)),
            "startDate": .string(goal.startsOn),
            "target": .array([.object([
                "measure": .object(["coding": .array([coding(measure.code)])]),
                "detailRange": range,
                "dueDate": .string(goal.endsOn),
            ])]),
            "statusDate": goal.closedAt.map { .string(ISODate.string($0, timeZone: timeZone)) },
            "expressedBy": author.map { reference("Practitioner", String($0.id)) },
        ])
    }

    func carePlan(_ record: FHIRRecord) -> J {
        .object([
            "resourceType": .string("CarePlan"),
            "id": .string("plan-\(record.patient.id)"),
            "status": .string("active"),
            "intent": .string("plan"),
            "title": .string("Tagarela"),
            "subject": reference("Patient", String(record.patient.id)),
            "careTeam": record.people.isEmpty ? nil : .array([reference("CareTeam", "care-\(record.patient.id)")]),
            "goal": .array(record.goals.map { reference("Goal", "goal-\($0.id ?? 0)") }),
            "activity": .array(record.meals.map { .object(["reference": reference("NutritionOrder", "meal-\($0.id)")]) }),
        ])
    }

    /// A prescribed meal: R4's oral diet has no list of foods, so the lines are its instruction, and
    /// its energy a nutrient.
    func nutritionOrder(_ meal: FHIRRecord.Meal, record: FHIRRecord) -> J {
        let lines = meal.lines.map { line -> String in
            let amount = FHIRJSON.decimal(line.quantity, digits: 2).serialized()
            let unit = line.unit == "household" ? line.householdUnit : (line.unit == "gram" ? "g" : "mL")
            let grams = FHIRJSON.decimal(line.grams, digits: 0).serialized()
            return line.unit == "household" ? "\(line.food): \(amount) \(unit) (\(grams) g)" : "\(line.food): \(amount) \(unit)"
        }
        let kcal = meal.lines.reduce(0) { $0 + $1.kcal }
        let orderer = record.people.contains { $0.id == meal.clinicianId } ? reference("Practitioner", String(meal.clinicianId)) : nil
        return .object([
            "resourceType": .string("NutritionOrder"),
            "id": .string("meal-\(meal.id)"),
            "status": .string(meal.status == "pending" ? "active" : "completed"),
            "intent": .string("order"),
            "patient": reference("Patient", String(record.patient.id)),
            "dateTime": .string(meal.date),
            "orderer": orderer,
            "oralDiet": .object([
                "type": .array([.object(["coding": .array([coding(FHIRCodes.tagarelaCode("meal-\(meal.type)", meal.type))]),
                                         "text": .string(meal.name)])]),
                "schedule": .array([.object(["event": .array([.string(dateTime(day: meal.date, time: meal.time))])])]),
                "nutrient": .array([.object(["modifier": .object(["coding": .array([coding(FHIRCodes.energy)]), "text": .string("Energy")]),
                                             "amount": quantity(kcal, unit: "kcal", digits: 0)])]),
                "instruction": lines.isEmpty ? nil : .string(lines.joined(separator: "; ")),
            ]),
        ])
    }

    /// The patient's answer to a meal: followed or not, with why and what instead; nil while pending.
    func checkIn(_ meal: FHIRRecord.Meal, patientId: Int64) -> J? {
        guard meal.status != "pending" else { return nil }
        var components: [J] = []
        if let share = meal.eatenShare {
            components.append(.object(["code": .object(["coding": .array([coding(FHIRCodes.mealEatenShare)])]),
                                       "valueQuantity": quantity(Double(share), unit: "%", digits: 0)]))
        }
        if let hunger = meal.hunger {
            components.append(.object(["code": .object(["coding": .array([coding(FHIRCodes.mealHunger)])]), "valueInteger": .integer(hunger)]))
        }
        let notes = [meal.reason.map { "reason: \($0)" }, meal.eatenInstead.map { "eaten instead: \($0)" }].compactMap { $0 }
        return .object([
            "resourceType": .string("Observation"),
            "id": .string("checkin-\(meal.id)"),
            "identifier": .array([identifier(FHIRCodes.observationIdentifier(base: base), "checkin-\(meal.id)")]),
            "basedOn": .array([reference("NutritionOrder", "meal-\(meal.id)")]),
            "status": .string("final"),
            "category": .array([category("survey")]),
            "code": .object(["coding": .array([coding(FHIRCodes.mealCheckIn)])]),
            "subject": reference("Patient", String(patientId)),
            "effectiveDateTime": .string(meal.answeredAt.map(instant) ?? meal.date),
            "valueCodeableConcept": .object(["coding": .array([coding(FHIRCodes.tagarelaCode("meal-\(meal.status)", meal.status))]),
                                             "text": .string(meal.status)]),
            "note": notes.isEmpty ? nil : .array(notes.map { .object(["text": .string($0)]) }),
            "component": .array(components),
        ])
    }

    // MARK: - Boards and games

    func dayCount(_ count: FHIRRecord.DayCount, _ measure: FHIRCodes.Measure, id: String, patientId: Int64) -> J {
        observation(id: "\(id)-\(patientId)-\(count.day)", measure: measure, patientId: patientId, effective: count.day,
                    value: quantity(Double(count.count), unit: measure.unit, digits: 0))
    }

    func game(_ result: FHIRRecord.GameResult, patientId: Int64) -> J {
        func component(_ code: FHIRCodes.Code, _ value: Int, _ unit: String) -> J {
            .object(["code": .object(["coding": .array([coding(code)])]), "valueQuantity": quantity(Double(value), unit: unit, digits: 0)])
        }
        let level = result.level.map { " level \($0)" } ?? ""
        return .object([
            "resourceType": .string("Observation"),
            "id": .string("educat-\(result.id)"),
            "identifier": .array([identifier(FHIRCodes.observationIdentifier(base: base), "educat-\(result.id)")]),
            "status": .string("final"),
            "category": .array([category("therapy")]),
            "code": .object(["coding": .array([coding(FHIRCodes.educatGame)])]),
            "subject": reference("Patient", String(patientId)),
            "effectiveDateTime": .string(instant(result.playedAt)),
            "valueCodeableConcept": .object([
                "coding": .array([coding(FHIRCodes.tagarelaCode("educat-\(result.area)", result.area))]),
                "text": .string("\(result.area), \(result.mode)\(level)"),
            ]),
            "method": .object(["coding": .array([coding(FHIRCodes.tagarelaCode("educat-mode-\(result.mode)", result.mode))])]),
            "component": .array([
                component(FHIRCodes.educatHits, result.hits, "{hits}"),
                component(FHIRCodes.educatErrors, result.errors, "{errors}"),
                component(FHIRCodes.educatDuration, result.durationSeconds, "s"),
            ]),
        ])
    }

    // MARK: - Parts

    func observation(id: String, measure: FHIRCodes.Measure, patientId: Int64, effective: String, value: J,
                     performer: Int64? = nil, method: (code: FHIRCodes.Code, text: String)? = nil,
                     derivedFrom: [String] = [], note: String? = nil) -> J {
        .object([
            "resourceType": .string("Observation"),
            "id": .string(id),
            "identifier": .array([identifier(FHIRCodes.observationIdentifier(base: base), id)]),
            "status": .string("final"),
            "category": .array([category(measure.category)]),
            "code": .object(["coding": .array(measure.codes.map(coding))]),
            "subject": reference("Patient", String(patientId)),
            "effectiveDateTime": .string(effective),
            "performer": performer.map { .array([reference("Practitioner", String($0))]) },
            "valueQuantity": value,
            "note": note.map { .array([.object(["text": .string($0)])]) },
            "method": method.map { .object(["coding": .array([coding($0.code)]), "text": .string($0.text)]) },
            "derivedFrom": .array(derivedFrom.map { reference("Observation", $0) }),
        ])
    }

    func quantity(_ value: Double, unit: String, digits: Int) -> J {
        .object(["value": .decimal(value, digits: digits), "unit": .string(unit), "system": .string(FHIRCodes.ucum), "code": .string(unit)])
    }

    func coding(_ code: FHIRCodes.Code) -> J {
        .object(["system": .string(code.system), "code": .string(code.code), "display": .string(code.display)])
    }

    func category(_ code: String) -> J {
        .object(["coding": .array([.object(["system": .string(FHIRCodes.observationCategory), "code": .string(code)])])])
    }

    func reference(_ type: String, _ id: String) -> J { .object(["reference": .string("\(type)/\(id)")]) }

    func identifier(_ system: String, _ value: String) -> J { .object(["system": .string(system), "value": .string(value)]) }

    func relatedPersonId(_ tutorId: Int64, _ patientId: Int64) -> String { "\(tutorId)-\(patientId)" }

    func fullURL(of resource: J) -> String {
        guard case .members(let pairs) = resource,
              case .string(let type)? = pairs.first(where: { $0.0 == "resourceType" })?.1,
              case .string(let id)? = pairs.first(where: { $0.0 == "id" })?.1 else { return base }
        return "\(base)/fhir/r4/\(type)/\(id)"
    }

    func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// A meal's day and time in the clinic's zone, with its offset (FHIR wants one when there is a time).
    func dateTime(day: String, time: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = (day + "-" + time.replacingOccurrences(of: ":", with: "-")).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 5, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2],
                                                                               hour: parts[3], minute: parts[4])) else { return day }
        return instant(date)
    }
}
