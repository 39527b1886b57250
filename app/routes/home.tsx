export default function Page() {
  return <div>home</div>
}
