import Foundation

// Body-composition rules (seed 004): skinfold density equations, Siri, derived masses, ideal weight and the
// classification tables. Pure functions over plain values: no database, no HTTP, no clock, no formatting.
// Every coefficient, its source and every boundary convention is written down in docs/formulas.md.

/// The sex the density equations and the classification tables were derived for.
public enum BiologicalSex: String, Sendable, CaseIterable { case female, male }

/// A skinfold site (measured in mm, on the right side of the body by convention).
public enum SkinfoldSite: String, Sendable, CaseIterable {
    case chest, midaxillary, triceps, subscapular, abdominal, suprailiac, thigh
}

public enum SkinfoldProtocol: String, Sendable, CaseIterable {
    /// Jackson & Pollock 7 sites (men 1978; women Jackson, Pollock & Ward 1980).
    case jp7
    /// Jackson & Pollock 3 sites: men chest + abdominal + thigh; women triceps + suprailiac + thigh.
    case jp3
    /// The seed's 3-site variant: men triceps + subscapular + chest; women triceps + abdominal + suprailiac.
    case jp3Alternate

    /// The sites this protocol measures for a sex, in the order a form should ask for them.
    ///
    /// The order is the head-to-toe order of `SkinfoldSite` (chest, mid-axillary, triceps, subscapular,
    /// abdominal, suprailiac, thigh), the usual order of the Jackson & Pollock measurement protocol.
    public func sites(for sex: BiologicalSex) -> [SkinfoldSite] {
        let used: Set<SkinfoldSite>
        switch (self, sex) {
        case (.jp7, _): used = Set(SkinfoldSite.allCases)
        case (.jp3, .male): used = [.chest, .abdominal, .thigh]
        case (.jp3, .female): used = [.triceps, .suprailiac, .thigh]
        case (.jp3Alternate, .male): used = [.triceps, .subscapular, .chest]
        case (.jp3Alternate, .female): used = [.triceps, .abdominal, .suprailiac]
        }
        return SkinfoldSite.allCases.filter { used.contains($0) }
    }

    /// The sites this protocol needs for a sex that are absent from `skinfolds`, in form order (empty when complete).
    public func missingSites(for sex: BiologicalSex, in skinfolds: [SkinfoldSite: Double]) -> [SkinfoldSite] {
        sites(for: sex).filter { skinfolds[$0] == nil }
    }

    /// The sum (mm) of this protocol's sites for a sex; sites the protocol does not use are ignored.
    /// nil when a needed site is missing.
    public func sumOfSkinfolds(_ skinfolds: [SkinfoldSite: Double], sex: BiologicalSex) -> Double? {
        var sum = 0.0
        for site in sites(for: sex) {
            guard let value = skinfolds[site] else { return nil }
            sum += value
        }
        return sum
    }

    /// The published density equation this protocol uses for a sex.
    public func equation(for sex: BiologicalSex) -> DensityEquation {
        switch (self, sex) {
        case (.jp7, .male): .jacksonPollock7Men
        case (.jp7, .female): .jacksonPollockWard7Women
        case (.jp3, .male): .jacksonPollock3Men
        case (.jp3, .female): .jacksonPollockWard3Women
        case (.jp3Alternate, .male): .pollockJackson3AlternateMen
        case (.jp3Alternate, .female): .pollockJackson3AlternateWomen
        }
    }
}

/// A generalized quadratic skinfold equation of the Jackson & Pollock family:
/// `Db = constant − sumCoefficient·S + squareCoefficient·S² − ageCoefficient·age`,
/// with S the sum of the skinfolds in mm, age in years and Db in g/cm³.
public struct DensityEquation: Sendable, Equatable {
    public let constant: Double
    public let sumCoefficient: Double
    public let squareCoefficient: Double
    public let ageCoefficient: Double

    public init(constant: Double, sumCoefficient: Double, squareCoefficient: Double, ageCoefficient: Double) {
        self.constant = constant
        self.sumCoefficient = sumCoefficient
        self.squareCoefficient = squareCoefficient
        self.ageCoefficient = ageCoefficient
    }

    /// `constant − sumCoefficient·S + squareCoefficient·S² − ageCoefficient·age` (the standard algebraic form,
    /// not the thesis's bracket nesting, which would flip the signs of the last two terms).
    public func density(sumOfSkinfolds sum: Double, age: Double) -> Double {
        constant - sumCoefficient * sum + squareCoefficient * sum * sum - ageCoefficient * age
    }

    /// Jackson AS, Pollock ML (1978). Generalized equations for predicting body density of men.
    /// British Journal of Nutrition 40(3):497–504. Seven sites (chest, mid-axillary, triceps, subscapular,
    /// abdominal, suprailiac, thigh); men aged 18–61:
    /// `Db = 1.112 − 0.00043499·S + 0.00000055·S² − 0.00028826·age`.
    /// (The thesis prints the age coefficient truncated as 0.0002882.)
    public static let jacksonPollock7Men = DensityEquation(
        constant: 1.112, sumCoefficient: 0.00043499, squareCoefficient: 0.00000055, ageCoefficient: 0.00028826)

    /// Jackson AS, Pollock ML, Ward A (1980). Generalized equations for predicting body density of women.
    /// Medicine and Science in Sports and Exercise 12(3):175–181. Seven sites (as for men); women aged 18–55:
    /// `Db = 1.097 − 0.00046971·S + 0.00000056·S² − 0.00012828·age`.
    public static let jacksonPollockWard7Women = DensityEquation(
        constant: 1.097, sumCoefficient: 0.00046971, squareCoefficient: 0.00000056, ageCoefficient: 0.00012828)

    /// Jackson AS, Pollock ML (1978), British Journal of Nutrition 40(3):497–504, three-site equation
    /// (chest, abdominal, thigh); men aged 18–61, as reproduced in Heyward & Wagner (2004), Applied Body
    /// Composition Assessment, 2nd ed.:
    /// `Db = 1.10938 − 0.0008267·S + 0.0000016·S² − 0.0002574·age`.
    public static let jacksonPollock3Men = DensityEquation(
        constant: 1.10938, sumCoefficient: 0.0008267, squareCoefficient: 0.0000016, ageCoefficient: 0.0002574)

    /// Jackson AS, Pollock ML, Ward A (1980), Medicine and Science in Sports and Exercise 12(3):175–181,
    /// three-site equation (triceps, suprailiac, thigh); women aged 18–55:
    /// `Db = 1.0994921 − 0.0009929·S + 0.0000023·S² − 0.0001392·age`.
    public static let jacksonPollockWard3Women = DensityEquation(
        constant: 1.0994921, sumCoefficient: 0.0009929, squareCoefficient: 0.0000023, ageCoefficient: 0.0001392)

    /// Pollock ML, Schmidt DH, Jackson AS (1980), Comprehensive Therapy 6(9):12–27, and Jackson AS, Pollock ML
    /// (1985), The Physician and Sportsmedicine 13(5):76–90, as reproduced in Heyward & Wagner (2004):
    /// men, triceps + subscapular + chest:
    /// `Db = 1.1125025 − 0.0013125·S + 0.0000055·S² − 0.000244·age`.
    /// (The thesis prints the quadratic coefficient as 0.00000055, ten times too small.)
    public static let pollockJackson3AlternateMen = DensityEquation(
        constant: 1.1125025, sumCoefficient: 0.0013125, squareCoefficient: 0.0000055, ageCoefficient: 0.000244)

    /// Pollock ML, Schmidt DH, Jackson AS (1980), Comprehensive Therapy 6(9):12–27, and Jackson AS, Pollock ML
    /// (1985), The Physician and Sportsmedicine 13(5):76–90, as reproduced in Heyward & Wagner (2004):
    /// women, triceps + abdominal + suprailiac:
    /// `Db = 1.089733 − 0.0009245·S + 0.0000025·S² − 0.0000979·age`.
    /// (The thesis prints the quadratic coefficient as 0.00000025, ten times too small.)
    public static let pollockJackson3AlternateWomen = DensityEquation(
        constant: 1.089733, sumCoefficient: 0.0009245, squareCoefficient: 0.0000025, ageCoefficient: 0.0000979)
}

public enum BodyCompositionRules {
    /// Body density (g/cm³) from the sum of the protocol's skinfolds (mm) and age (years).
    ///
    /// Uses `skinfoldProtocol.equation(for: sex)`: the published Jackson & Pollock (1978), Jackson, Pollock &
    /// Ward (1980) or Pollock, Schmidt & Jackson (1980) coefficients in the form
    /// `Db = a − b·S + c·S² − d·age`.
    public static func bodyDensity(_ skinfoldProtocol: SkinfoldProtocol, sex: BiologicalSex, sumOfSkinfolds: Double, age: Double) -> Double {
        skinfoldProtocol.equation(for: sex).density(sumOfSkinfolds: sumOfSkinfolds, age: age)
    }

    /// Siri (1961): %fat = 495 / density − 450.
    ///
    /// Siri WE (1961). Body composition from fluid spaces and density: analysis of methods. In Brozek J,
    /// Henschel A (eds.), Techniques for Measuring Body Composition, 223–244. Washington DC: National Academy
    /// of Sciences. Same as the thesis's `[(4.95 / DC) − 4.50] · 100`.
    public static func siriPercentFat(density: Double) -> Double {
        495.0 / density - 450.0
    }

    /// The median of 1 to 3 readings (the value used for a skinfold measured several times). nil for an empty array.
    ///
    /// Two readings give their mean; an odd count gives the middle reading; any other even count the mean of
    /// the two middle readings.
    public static func median(_ readings: [Double]) -> Double? {
        guard !readings.isEmpty else { return nil }
        let sorted = readings.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        return (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Body-mass index (Quetelet): weight (kg) ÷ height (m)².
    public static func bmi(weightKg: Double, heightM: Double) -> Double {
        weightKg / (heightM * heightM)
    }

    /// Whether an age is inside the equations' validated range (18...60, the generalized equations' population).
    public static func isAgeValidated(_ age: Double) -> Bool {
        validatedAges.contains(age)
    }

    /// The ages (years, inclusive) the generalized equations are accepted for without a warning.
    public static let validatedAges: ClosedRange<Double> = 18...60

    /// Fat mass (kg) = weight × %fat ÷ 100 (thesis §4.3.2, "gordura absoluta").
    public static func fatMass(weightKg: Double, percentFat: Double) -> Double {
        weightKg * percentFat / 100
    }

    /// The lean fraction of the ideal weight: 0.85 for men, 0.75 for women (thesis §4.3.2, i.e. a target of
    /// 15 % fat for men and 25 % for women).
    public static func idealLeanFraction(for sex: BiologicalSex) -> Double {
        switch sex {
        case .male: 0.85
        case .female: 0.75
        }
    }

    /// Ideal weight (kg) = lean mass ÷ 0.85 (men) or ÷ 0.75 (women) (thesis §4.3.2).
    public static func idealWeight(leanMassKg: Double, sex: BiologicalSex) -> Double {
        leanMassKg / idealLeanFraction(for: sex)
    }

    /// Rounds to 9 decimal places so that binary floating-point noise (81 ÷ 1.8² = 24.999999999999996) does not
    /// move a value across a table boundary. Used before every boundary comparison.
    static func snapped(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        return (value * 1e9).rounded() / 1e9
    }
}

/// Everything computed from one evaluation.
public struct BodyCompositionResult: Sendable, Equatable {
    public let sumOfSkinfolds: Double
    public let density: Double
    public let percentFat: Double
    public let fatMassKg: Double
    public let leanMassKg: Double
    public let percentLean: Double          // 100 − %fat
    public let idealWeightKg: Double        // lean ÷ 0.85 men, ÷ 0.75 women
    public let weightChangeKg: Double       // ideal − current: negative = to lose, positive = to gain
    public let fatClass: FatClass
    public let ageIsValidated: Bool

    /// nil when a site the protocol needs is missing from `skinfolds`.
    ///
    /// Sites the protocol does not use are ignored. Chain: sum → density (`BodyCompositionRules.bodyDensity`)
    /// → Siri %fat → fat kg = weight × %fat ÷ 100 → lean kg = weight − fat → ideal = lean ÷ 0.85 / 0.75 →
    /// change = ideal − weight; Lohman class from %fat.
    public static func compute(_ skinfoldProtocol: SkinfoldProtocol, sex: BiologicalSex, age: Double, weightKg: Double,
                               skinfolds: [SkinfoldSite: Double]) -> BodyCompositionResult? {
        guard let sum = skinfoldProtocol.sumOfSkinfolds(skinfolds, sex: sex) else { return nil }
        let density = BodyCompositionRules.bodyDensity(skinfoldProtocol, sex: sex, sumOfSkinfolds: sum, age: age)
        let percentFat = BodyCompositionRules.siriPercentFat(density: density)
        let fat = BodyCompositionRules.fatMass(weightKg: weightKg, percentFat: percentFat)
        let lean = weightKg - fat
        let ideal = BodyCompositionRules.idealWeight(leanMassKg: lean, sex: sex)
        return BodyCompositionResult(
            sumOfSkinfolds: sum, density: density, percentFat: percentFat, fatMassKg: fat, leanMassKg: lean,
            percentLean: 100 - percentFat, idealWeightKg: ideal, weightChangeKg: ideal - weightKg,
            fatClass: FatClass.classify(percentFat: percentFat, sex: sex),
            ageIsValidated: BodyCompositionRules.isAgeValidated(age))
    }
}

/// Lohman (1992) classes by % fat, with contiguous intervals so no value falls in a gap:
/// men: lean < 8 ≤ optimal < 16 ≤ overweight < 21 ≤ fat ≤ 24 < obese;
/// women: lean < 13 ≤ optimal < 24 ≤ overweight < 28 ≤ fat ≤ 33 < obese.
///
/// Lohman TG (1992). Advances in Body Composition Assessment. Champaign, IL: Human Kinetics (thesis Tabela 1,
/// whose integer ranges 8–15, 16–20, 21–24 leave gaps that these intervals close).
public enum FatClass: String, Sendable, CaseIterable {
    case lean, optimal, overweight, fat, obese

    public static func classify(percentFat: Double, sex: BiologicalSex) -> FatClass {
        let x = BodyCompositionRules.snapped(percentFat)
        let (optimalFrom, overweightFrom, fatFrom, fatTo): (Double, Double, Double, Double) =
            sex == .male ? (8, 16, 21, 24) : (13, 24, 28, 33)
        if x < optimalFrom { return .lean }
        if x < overweightFrom { return .optimal }
        if x < fatFrom { return .overweight }
        if x <= fatTo { return .fat }
        return .obese
    }
}

/// WHO BMI classes: < 18.5 underweight; [18.5, 25) normal; [25, 30) overweight; [30, 35) obese I; [35, 40) obese II; ≥ 40 obese III.
///
/// World Health Organization (2000). Obesity: preventing and managing the global epidemic. WHO Technical Report
/// Series 894, Table 2.1.
public enum BMIClass: String, Sendable, CaseIterable {
    case underweight, normal, overweight, obese1, obese2, obese3

    public static func classify(bmi: Double) -> BMIClass {
        let x = BodyCompositionRules.snapped(bmi)
        if x < 18.5 { return .underweight }
        if x < 25 { return .normal }
        if x < 30 { return .overweight }
        if x < 35 { return .obese1 }
        if x < 40 { return .obese2 }
        return .obese3
    }
}

/// One age band of the Bray & Gray (1988) waist-hip-ratio table.
public struct WaistHipBand: Sendable, Equatable {
    public let sex: BiologicalSex
    /// Ages (whole years) the band was published for, e.g. 20...29.
    public let ages: ClosedRange<Int>
    /// First ratio that is moderate (below it: low).
    public let moderateFrom: Double
    /// First ratio that is high (the next band's first value).
    public let highFrom: Double
    /// Last ratio that is high (above it: very high).
    public let highTo: Double

    public func classify(ratio: Double) -> WaistHipRisk {
        let x = BodyCompositionRules.snapped(ratio)
        if x < moderateFrom { return .low }
        if x < highFrom { return .moderate }
        if x <= highTo { return .high }
        return .veryHigh
    }

    /// Bray GA, Gray DS (1988). Obesity. Part I — Pathogenesis. Western Journal of Medicine 149(4):429–441,
    /// as reproduced in Heyward & Wagner (2004). Printed ranges (men 20–29): low < 0.83, moderate 0.83–0.88,
    /// high 0.89–0.94, very high > 0.94.
    public static let table: [WaistHipBand] = [
        WaistHipBand(sex: .male, ages: 20...29, moderateFrom: 0.83, highFrom: 0.89, highTo: 0.94),
        WaistHipBand(sex: .male, ages: 30...39, moderateFrom: 0.84, highFrom: 0.92, highTo: 0.96),
        WaistHipBand(sex: .male, ages: 40...49, moderateFrom: 0.88, highFrom: 0.96, highTo: 1.00),
        WaistHipBand(sex: .male, ages: 50...59, moderateFrom: 0.90, highFrom: 0.97, highTo: 1.02),
        WaistHipBand(sex: .male, ages: 60...69, moderateFrom: 0.91, highFrom: 0.99, highTo: 1.03),
        WaistHipBand(sex: .female, ages: 20...29, moderateFrom: 0.71, highFrom: 0.78, highTo: 0.82),
        WaistHipBand(sex: .female, ages: 30...39, moderateFrom: 0.72, highFrom: 0.79, highTo: 0.84),
        WaistHipBand(sex: .female, ages: 40...49, moderateFrom: 0.73, highFrom: 0.80, highTo: 0.87),
        WaistHipBand(sex: .female, ages: 50...59, moderateFrom: 0.74, highFrom: 0.82, highTo: 0.88),
        WaistHipBand(sex: .female, ages: 60...69, moderateFrom: 0.76, highFrom: 0.84, highTo: 0.90),
    ]

    /// The band used for a sex and age: the band holding the whole-year age; under 20 the 20–29 band and 70 or
    /// more the 60–69 band, with `isExtrapolated` true.
    public static func band(sex: BiologicalSex, age: Double) -> (band: WaistHipBand, isExtrapolated: Bool) {
        let bands = table.filter { $0.sex == sex }
        let years = age.isFinite ? Int(max(min(age, 1000), -1000).rounded(.down)) : 20
        if let exact = bands.first(where: { $0.ages.contains(years) }) { return (exact, false) }
        return (years < bands[0].ages.lowerBound ? bands[0] : bands[bands.count - 1], true)
    }
}

/// Bray & Gray (1988) waist-hip-ratio risk by sex and age band (20–29 … 60–69; the full table is in the spec §4.9),
/// contiguous: low < a ≤ moderate < (next band's first value) ≤ high ≤ d < veryHigh. E.g. men 20–29:
/// low < 0.83 ≤ moderate < 0.89 ≤ high ≤ 0.94 < veryHigh, so exactly 0.95 for a man of 25 is veryHigh.
public enum WaistHipRisk: String, Sendable, CaseIterable {
    case low, moderate, high, veryHigh

    /// Ages under 20 use the 20–29 band and ages over 69 the 60–69 band; `isExtrapolated` says so.
    public static func classify(ratio: Double, sex: BiologicalSex, age: Double) -> (risk: WaistHipRisk, isExtrapolated: Bool) {
        let (band, isExtrapolated) = WaistHipBand.band(sex: sex, age: age)
        return (band.classify(ratio: ratio), isExtrapolated)
    }

    /// Waist ÷ hip (both in the same unit).
    public static func ratio(waist: Double, hip: Double) -> Double {
        waist / hip
    }
}

/// WHO waist circumference risk: men < 94 low, [94, 102) increased, ≥ 102 high; women < 80, [80, 88), ≥ 88.
///
/// World Health Organization (2000), WHO Technical Report Series 894, Table 2.2 (risk of metabolic
/// complications: increased ≥ 94 cm men / ≥ 80 cm women; substantially increased ≥ 102 / ≥ 88); restated in
/// WHO (2011), Waist circumference and waist–hip ratio: report of a WHO expert consultation (Geneva, 2008).
public enum WaistRisk: String, Sendable, CaseIterable {
    case low, increased, high

    public static func classify(waistCm: Double, sex: BiologicalSex) -> WaistRisk {
        let x = BodyCompositionRules.snapped(waistCm)
        let (increasedFrom, highFrom): (Double, Double) = sex == .male ? (94, 102) : (80, 88)
        if x < increasedFrom { return .low }
        if x < highFrom { return .increased }
        return .high
    }
}

/// Whether a change between two evaluations is larger than the typical measurement error.
public enum MeasurementChange: Sendable, Equatable {
    case noRealChange(Double)   // |delta| below the typical error
    case changed(Double)

    /// Typical error of body weight (kg).
    public static let weightErrorKg = 0.5
    /// Typical error of % fat (percentage points).
    public static let percentFatErrorPoints = 1.0
    /// Typical error of a sum of skinfolds, as a fraction of the earlier sum.
    public static let sumOfSkinfoldsErrorFraction = 0.05
    /// Typical error of a perimeter (cm).
    public static let perimeterErrorCm = 1.0
    /// Typical error of fat mass or lean mass (kg).
    public static let massErrorKg = 0.7

    /// Typical errors used: weight 0.5 kg; % fat 1.0 point; sum of skinfolds 5 % of the earlier sum; a perimeter 1.0 cm;
    /// fat and lean mass 0.7 kg. Document the choice and its source (or that it is a conservative convention) in docs/formulas.md.
    public static func weight(from: Double, to: Double) -> MeasurementChange {
        judge(from: from, to: to, typicalError: weightErrorKg)
    }

    public static func percentFat(from: Double, to: Double) -> MeasurementChange {
        judge(from: from, to: to, typicalError: percentFatErrorPoints)
    }

    public static func sumOfSkinfolds(from: Double, to: Double) -> MeasurementChange {
        judge(from: from, to: to, typicalError: sumOfSkinfoldsErrorFraction * abs(from))
    }

    public static func perimeter(from: Double, to: Double) -> MeasurementChange {
        judge(from: from, to: to, typicalError: perimeterErrorCm)
    }

    public static func mass(from: Double, to: Double) -> MeasurementChange {
        judge(from: from, to: to, typicalError: massErrorKg)
    }

    /// to − from (rounded to 9 decimal places).
    public var delta: Double {
        switch self {
        case .noRealChange(let delta), .changed(let delta): delta
        }
    }

    /// Whether the change is at least the typical error.
    public var isRealChange: Bool {
        if case .changed = self { return true }
        return false
    }

    /// A change equal to the typical error counts as real; no change at all is never real.
    private static func judge(from: Double, to: Double, typicalError: Double) -> MeasurementChange {
        let delta = BodyCompositionRules.snapped(to - from)
        if delta == 0 || abs(delta) < BodyCompositionRules.snapped(typicalError) { return .noRealChange(delta) }
        return .changed(delta)
    }
}
