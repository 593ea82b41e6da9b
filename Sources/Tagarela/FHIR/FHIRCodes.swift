/// The code systems and codes of Tagarela's FHIR export (see docs/fhir.md): LOINC where LOINC has a
/// code for the measure, SNOMED CT for the hip, Tagarela's own code system for everything else.
enum FHIRCodes {
    static let loinc = "http://loinc.org"
    static let snomed = "http://snomed.info/sct"
    static let ucum = "http://unitsofmeasure.org"
    static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    static let goalAchievement = "http://terminology.hl7.org/CodeSystem/goal-achievement"
    /// Tagarela's code system, documented in docs/fhir.md (its codes are the `Tagarela` cases' names).
    static let tagarela = "https://tagarela.org/fhir/CodeSystem/record"
    /// Identifier systems are the clinic's own, under its site's address: two clinics' patient 7 are two people.
    static func patientIdentifier(base: String) -> String { "\(base)/fhir/sid/patient" }
    static func observationIdentifier(base: String) -> String { "\(base)/fhir/sid/observation" }

    struct Code: Sendable, Equatable {
        let system: String
        let code: String
        let display: String
    }

    /// A measure with its code(s), unit and category.
    struct Measure: Sendable, Equatable {
        let codes: [Code]
        /// UCUM code and the unit shown.
        let unit: String
        let category: String
    }

    static func tagarelaCode(_ code: String, _ display: String) -> Code { Code(system: tagarela, code: code, display: display) }

    static let weight = Measure(codes: [Code(system: loinc, code: "29463-7", display: "Body weight")], unit: "kg", category: "vital-signs")
    static let height = Measure(codes: [Code(system: loinc, code: "8302-2", display: "Body height")], unit: "cm", category: "vital-signs")
    static let bmi = Measure(codes: [Code(system: loinc, code: "39156-5", display: "Body mass index (BMI) [Ratio]")],
                             unit: "kg/m2", category: "vital-signs")
    static let percentFat = Measure(codes: [Code(system: loinc, code: "41982-0", display: "Percentage of body fat Measured")],
                                    unit: "%", category: "exam")
    static let sumOfSkinfolds = Measure(codes: [tagarelaCode("skinfold-sum", "Sum of skinfolds")], unit: "mm", category: "exam")
    static let bodyDensity = Measure(codes: [tagarelaCode("body-density", "Body density")], unit: "g/mL", category: "exam")
    static let fatMass = Measure(codes: [tagarelaCode("fat-mass", "Fat mass")], unit: "kg", category: "exam")
    static let leanMass = Measure(codes: [tagarelaCode("lean-mass", "Lean mass")], unit: "kg", category: "exam")

    static func skinfold(_ site: SkinfoldSite) -> Measure {
        Measure(codes: [tagarelaCode("skinfold-\(site.rawValue)", "Skinfold thickness, \(site.rawValue)")], unit: "mm", category: "exam")
    }

    /// Waist has a LOINC code (8280-0, by tape at the umbilicus); hip has none that is a measurement
    /// (62409-8 is a PhenX protocol panel), so it carries SNOMED CT's observable entity.
    static func perimeter(_ site: PerimeterSite) -> Measure {
        let own = tagarelaCode("perimeter-\(site.rawValue)", "Circumference, \(site.rawValue)")
        switch site {
        case .waist:
            return Measure(codes: [Code(system: loinc, code: "8280-0", display: "Waist Circumference at umbilicus by Tape measure"), own],
                           unit: "cm", category: "exam")
        case .hip:
            return Measure(codes: [Code(system: snomed, code: "284472007", display: "Hip circumference"), own], unit: "cm", category: "exam")
        default:
            return Measure(codes: [own], unit: "cm", category: "exam")
        }
    }

    static let dailyTaps = Measure(codes: [tagarelaCode("aac-daily-taps", "Board symbols tapped by the patient in a day")],
                                   unit: "{taps}/d", category: "therapy")
    static let dailySentences = Measure(codes: [tagarelaCode("aac-daily-sentences", "Sentences spoken with the board in a day")],
                                        unit: "{sentences}/d", category: "therapy")
    static let educatGame = Code(system: tagarela, code: "educat-game", display: "eduCAT game played")
    static let educatHits = Code(system: tagarela, code: "educat-hits", display: "eduCAT hits")
    static let educatErrors = Code(system: tagarela, code: "educat-errors", display: "eduCAT errors")
    static let educatDuration = Code(system: tagarela, code: "educat-duration", display: "eduCAT game duration")
    static let mealCheckIn = Code(system: tagarela, code: "meal-check-in", display: "Prescribed meal check-in")
    static let mealEatenShare = Code(system: tagarela, code: "meal-eaten-share", display: "Share of the prescription eaten instead")
    static let mealHunger = Code(system: tagarela, code: "meal-hunger", display: "Hunger before the meal (1-5)")
    static let energy = Code(system: tagarela, code: "energy", display: "Energy")

    /// The skinfold protocol as an Observation's method: the sites, the density equation and Siri's.
    static func protocolMethod(_ skinfoldProtocol: SkinfoldProtocol, sex: BiologicalSex) -> (code: Code, text: String) {
        let equation: String
        switch (skinfoldProtocol, sex) {
        case (.jp7, .male): equation = "Jackson & Pollock 7 sites (men)"
        case (.jp7, .female): equation = "Jackson, Pollock & Ward 7 sites (women)"
        case (.jp3, .male): equation = "Jackson & Pollock 3 sites: chest, abdominal, thigh (men)"
        case (.jp3, .female): equation = "Jackson, Pollock & Ward 3 sites: triceps, suprailiac, thigh (women)"
        case (.jp3Alternate, .male): equation = "Pollock & Jackson 3 sites: triceps, subscapular, chest (men)"
        case (.jp3Alternate, .female): equation = "Pollock & Jackson 3 sites: triceps, abdominal, suprailiac (women)"
        }
        return (tagarelaCode("protocol-\(skinfoldProtocol.rawValue)-siri", "\(equation); Siri equation"), "\(equation); % fat by Siri (1961)")
    }

    /// A goal kind as the target's measure.
    static func goalMeasure(_ goal: Goal) -> (code: Code, unit: String) {
        switch goal.goalKind {
        case .symbolTaps: (tagarelaCode("goal-symbol-taps", "Taps of one symbol per week"), "{taps}/wk")
        case .categoryTaps: (tagarelaCode("goal-category-taps", "Taps of one category's symbols per week"), "{taps}/wk")
        case .sentences: (tagarelaCode("goal-sentences", "Sentences per week"), "{sentences}/wk")
        case .independentTaps: (tagarelaCode("goal-independent-taps", "Share of the week's taps made alone"), "%")
        case .gameHits: (tagarelaCode("goal-game-hits", "eduCAT hits in one game"), "{hits}")
        case .gameAccuracy: (tagarelaCode("goal-game-accuracy", "Share of eduCAT answers right"), "%")
        case .adherence: (tagarelaCode("goal-meal-adherence", "Meals followed of meals answered"), "%")
        case .bodyMeasure:
            switch goal.bodyMeasure {
            case .percentFat: (percentFat.codes[0], "%")
            case .weight: (weight.codes[0], "kg")
            case .perimeter:
                (perimeter(PerimeterSite(rawValue: goal.perimeterSite ?? "") ?? .waist).codes[0], "cm")
            }
        }
    }
}
