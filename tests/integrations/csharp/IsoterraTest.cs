// The C API from C# through P/Invoke, as Unity and other .NET hosts call native plugins:
// a field's values at points, written for the test to compare with `isoterra sample`; a
// region's mesh; and the error of a bad preset. Exit code 0 when every check holds.
using System;
using System.Globalization;
using System.IO;
using System.Runtime.InteropServices;

static class Native {
    const string Lib = "isoterra_c";
    [DllImport(Lib)] public static extern int isoterra_abi_version();
    [DllImport(Lib)] public static extern IntPtr isoterra_last_error();
    [DllImport(Lib)] public static extern IntPtr isoterra_field_new([MarshalAs(UnmanagedType.LPStr)] string presetOrPath, long seed);
    [DllImport(Lib)] public static extern void isoterra_field_free(IntPtr field);
    [DllImport(Lib)] public static extern int isoterra_field_sample(IntPtr field, double[] xyz, UIntPtr n, double[] values);
    [DllImport(Lib)] public static extern IntPtr isoterra_mesh_region(IntPtr field, double[] lo, double[] hi,
                                                                      [MarshalAs(UnmanagedType.LPStr)] string mesher, int lod, int threads);
    [DllImport(Lib)] public static extern UIntPtr isoterra_mesh_vertex_count(IntPtr mesh);
    [DllImport(Lib)] public static extern UIntPtr isoterra_mesh_triangle_count(IntPtr mesh);
    [DllImport(Lib)] public static extern IntPtr isoterra_mesh_positions(IntPtr mesh);
    [DllImport(Lib)] public static extern IntPtr isoterra_mesh_indices(IntPtr mesh);
    [DllImport(Lib)] public static extern void isoterra_mesh_free(IntPtr mesh);
    public static string LastError() => Marshal.PtrToStringAnsi(isoterra_last_error());
}

static class IsoterraTest {
    static int failures = 0;
    static void Check(bool ok, string what) {
        if (!ok) { Console.Error.WriteLine("failed: " + what + " (" + Native.LastError() + ")"); failures++; }
    }

    // Usage: IsoterraTest.exe POINTS_IN VALUES_OUT
    static int Main(string[] args) {
        Check(Native.isoterra_abi_version() == 1, "abi version 1");
        IntPtr field = Native.isoterra_field_new("alpine", -1);
        Check(field != IntPtr.Zero, "a field of alpine");
        if (field == IntPtr.Zero) return 1;

        string[] lines = File.ReadAllLines(args[0]);
        var xyz = new double[3 * lines.Length];
        for (int i = 0; i < lines.Length; ++i) {
            string[] parts = lines[i].Split(' ');
            for (int a = 0; a < 3; ++a) xyz[3 * i + a] = double.Parse(parts[a], CultureInfo.InvariantCulture);
        }
        var values = new double[lines.Length];
        Check(Native.isoterra_field_sample(field, xyz, (UIntPtr)lines.Length, values) == 0, "sampling");
        using (var w = new StreamWriter(args[1]))
            foreach (double v in values) w.WriteLine(BitConverter.DoubleToInt64Bits(v).ToString("X16"));  // bits: no formatting to trust

        IntPtr mesh = Native.isoterra_mesh_region(field, new double[] {0, 1000, 0}, new double[] {64, 1400, 64}, "surface-nets", 0, 2);
        Check(mesh != IntPtr.Zero, "a mesh of a region");
        if (mesh != IntPtr.Zero) {
            int nv = (int)Native.isoterra_mesh_vertex_count(mesh), nt = (int)Native.isoterra_mesh_triangle_count(mesh);
            Check(nv > 100 && nt > 100, "the mesh has triangles");
            var positions = new float[3 * nv];
            Marshal.Copy(Native.isoterra_mesh_positions(mesh), positions, 0, positions.Length);
            var indices = new int[3 * nt];
            Marshal.Copy(Native.isoterra_mesh_indices(mesh), indices, 0, indices.Length);
            bool inside = true, valid = true;
            for (int v = 0; v < nv; ++v) inside &= positions[3 * v] >= -1.0 && positions[3 * v] <= 65.0;  // surface nets: within a cell of the box
            foreach (int i in indices) valid &= i >= 0 && i < nv;
            Check(inside && valid, "the mesh lies in its box with valid indices");
            Console.WriteLine("mesh: " + nv + " vertices, " + nt + " triangles");
            Native.isoterra_mesh_free(mesh);
        }
        Check(Native.isoterra_field_new("no-such-preset", -1) == IntPtr.Zero, "a bad preset fails");
        Check(Native.LastError().Contains("no-such-preset"), "the error names it");
        Native.isoterra_field_free(field);
        Console.WriteLine(failures == 0 ? "IsoterraTest: all checks passed" : "IsoterraTest: " + failures + " failed");
        return failures == 0 ? 0 : 1;
    }
}
